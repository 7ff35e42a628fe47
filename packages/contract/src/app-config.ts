import { z } from 'zod';

export const APP_CONFIG_PATH = '/app-config.json';

/** Runtime configuration of the page, served by the server from its environment (not built in). */
export const appConfigSchema = z.object({
  /** The organisation's home application: the Home breadcrumb. */
  homeUrl: z.string(),
  /** The launchpad (accounts front door): the back button. */
  launchpadUrl: z.string(),
  /** The product-usage monitoring script; absent when not configured. */
  monitoringScriptUrl: z.string().optional(),
  /** The global navigator micro-frontend script; absent when not configured. */
  globalNavigatorScriptUrl: z.string().optional(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;
