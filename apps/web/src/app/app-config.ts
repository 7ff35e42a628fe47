import { queryOptions, useQuery } from '@tanstack/react-query';
import { APP_CONFIG_ELEMENT_ID, APP_CONFIG_PATH, type AppConfig } from '@users-admin/contract';
import { designTokens } from '../config/design-tokens.ts';
import { platformAddresses } from '../config/host-environment.ts';
import { httpClient } from '../lib/http/http-client.ts';

/** Used until the server's configuration arrives, or if it cannot be read. */
export const FALLBACK_APP_CONFIG: AppConfig = {};

/** The configuration with the home and launchpad addresses always known. */
export type ResolvedAppConfig = AppConfig & { homeUrl: string; launchpadUrl: string };

const FIELDS = ['homeUrl', 'launchpadUrl', 'monitoringScriptUrl', 'globalNavigatorScriptUrl', 'supportUrl'] as const;

/** Keeps the known fields that are non-empty strings. (No zod here: it would weigh on the first render.) */
export function parseAppConfig(value: unknown): AppConfig {
  const config: AppConfig = {};
  if (typeof value !== 'object' || value === null) return config;
  for (const field of FIELDS) {
    const entry = (value as Record<string, unknown>)[field];
    if (typeof entry === 'string' && entry !== '') config[field] = entry;
  }
  return config;
}

/** The configuration the server wrote into the page's HTML, if it did (see the server's web-app plugin). */
export function readInlineAppConfig(doc: Document = document): AppConfig | undefined {
  const text = doc.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return parseAppConfig(JSON.parse(text));
  } catch {
    return undefined;
  }
}

let startupConfig: AppConfig | undefined;

/**
 * The configuration at start-up: from the HTML when the server wrote it there (no request), else
 * from /app-config.json (the Vite dev server), else the fallback. Never rejects.
 */
export async function loadAppConfig(): Promise<AppConfig> {
  startupConfig = readInlineAppConfig();
  if (!startupConfig) {
    try {
      startupConfig = parseAppConfig(await httpClient.get(APP_CONFIG_PATH, { signal: AbortSignal.timeout(5000) }));
    } catch (error) {
      console.warn('The page configuration could not be read: the defaults apply', error);
      startupConfig = FALLBACK_APP_CONFIG;
    }
  }
  return startupConfig;
}

/** Home and launchpad from the host name (config/host-environment.ts) when not configured. */
export function resolveAppConfig(
  config: AppConfig,
  location?: Pick<Location, 'protocol' | 'hostname' | 'port'>,
): ResolvedAppConfig {
  const { homeUrl, launchpadUrl } = config;
  // Resolved already (the server's drawing of the page resolves it from the request's address).
  if (homeUrl !== undefined && launchpadUrl !== undefined) return { ...config, homeUrl, launchpadUrl };
  const derived = platformAddresses(location ?? window.location);
  return { ...config, homeUrl: homeUrl ?? derived.homeUrl, launchpadUrl: launchpadUrl ?? derived.launchpadUrl };
}

export function getAppConfigQueryOptions() {
  return queryOptions({
    queryKey: ['app-config'] as const,
    queryFn: async ({ signal }) => parseAppConfig(await httpClient.get<AppConfig>(APP_CONFIG_PATH, { signal })),
    // Read once at start-up (main.tsx): no request then.
    initialData: () => startupConfig,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAppConfig(): ResolvedAppConfig {
  const { data } = useQuery(getAppConfigQueryOptions());
  return resolveAppConfig(data ?? FALLBACK_APP_CONFIG);
}

export const GLOBAL_NAVIGATOR_TAG = 'global-navigator';

/** The global navigator's place as HTML, as `loadStartupScripts` makes it, for a page the server draws. */
export function globalNavigatorPlace(): string {
  return `<${GLOBAL_NAVIGATOR_TAG} style="display:block;min-height:${designTokens.header.height}px"></${GLOBAL_NAVIGATOR_TAG}>`;
}
export const GLOBAL_NAVIGATOR_HEIGHT_VARIABLE = '--global-navigator-height';

/**
 * Adds the monitoring and global-navigator scripts to the head, once each, with credentials
 * (SPEC.md §7), before the page mounts. Absent addresses are skipped. Nothing waits for them: a
 * script that fails is logged and the page goes on without it.
 *
 * The global navigator gets its place at the top of the body now, a header's height (SPEC.md §9)
 * tall, so that the page does not move when the bar appears; the place is given back if the
 * script fails.
 */
export function loadStartupScripts(config: AppConfig, doc: Document = document): void {
  const navigatorUrl = config.globalNavigatorScriptUrl;
  let place: HTMLElement | undefined;
  if (navigatorUrl) {
    // Kept if it is there already (a second call).
    place = doc.querySelector<HTMLElement>(GLOBAL_NAVIGATOR_TAG) ?? undefined;
    if (!place) {
      place = doc.createElement(GLOBAL_NAVIGATOR_TAG);
      place.style.display = 'block';
      place.style.minHeight = `${designTokens.header.height}px`;
      doc.body.prepend(place);
    }
    // What full-height screens leave for it (components/full-page-loader.tsx).
    doc.documentElement.style.setProperty(GLOBAL_NAVIGATOR_HEIGHT_VARIABLE, `${designTokens.header.height}px`);
  }
  for (const [name, src] of [
    ['monitoring', config.monitoringScriptUrl],
    ['global-navigator', navigatorUrl],
  ] as const) {
    if (!src || doc.head.querySelector(`script[data-startup="${name}"]`)) continue;
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.crossOrigin = 'use-credentials';
    script.dataset.startup = name;
    script.onerror = () => {
      console.warn(`The ${name} script could not be loaded from ${src}; the page goes on without it.`);
      if (name === 'global-navigator' && place && !doc.defaultView?.customElements.get(GLOBAL_NAVIGATOR_TAG)) {
        place.remove();
        doc.documentElement.style.removeProperty(GLOBAL_NAVIGATOR_HEIGHT_VARIABLE);
      }
    };
    doc.head.append(script);
  }
}
