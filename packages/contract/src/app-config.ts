import { z } from 'zod';

export const APP_CONFIG_PATH = '/app-config.json';

/**
 * The id of the `<script type="application/json">` in which the server writes this configuration
 * into the page's HTML, so that the page has it before it mounts, without a request.
 */
export const APP_CONFIG_ELEMENT_ID = 'app-config';

/** Runtime configuration of the page, served by the server from its environment (not built in). */
export const appConfigSchema = z.object({
  /** The organisation's home application: the Home breadcrumb. Absent: derived from the host name. */
  homeUrl: z.string().optional(),
  /** The launchpad (accounts front door): the back button. Absent: derived from the host name. */
  launchpadUrl: z.string().optional(),
  /** The product-usage monitoring script; absent when not configured. */
  monitoringScriptUrl: z.string().optional(),
  /** The global navigator micro-frontend script; absent when not configured. */
  globalNavigatorScriptUrl: z.string().optional(),
  /** Where a disabled user's "Contact support" goes: a `mailto:` or https address. */
  supportUrl: z.string().optional(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** Contact support's address when SUPPORT_URL is not set. */
export const SUPPORT_URL_DEFAULT = 'mailto:support@platform.example';

/** A support address the page opens: `mailto:` with an address, or https. */
export function isSupportUrl(value: string): boolean {
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(value)) return true;
  return URL.canParse(value) && new URL(value).protocol === 'https:';
}
