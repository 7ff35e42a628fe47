import { queryOptions, useQuery } from '@tanstack/react-query';
import { APP_CONFIG_PATH, type AppConfig } from '@users-admin/contract';
import { httpClient } from '../lib/http/http-client.ts';

/** Used until the server's configuration arrives, or if it cannot be read. */
export const FALLBACK_APP_CONFIG: AppConfig = { homeUrl: '/', launchpadUrl: '/' };

export function getAppConfigQueryOptions() {
  return queryOptions({
    queryKey: ['app-config'] as const,
    queryFn: async ({ signal }) =>
      (await httpClient.get<AppConfig>(APP_CONFIG_PATH, { signal })) ?? FALLBACK_APP_CONFIG,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAppConfig(): AppConfig {
  const { data } = useQuery(getAppConfigQueryOptions());
  return data ?? FALLBACK_APP_CONFIG;
}

/**
 * Adds the monitoring and global-navigator scripts to the head, once each, with credentials
 * (SPEC.md §7). Absent addresses are skipped.
 */
export function loadStartupScripts(config: AppConfig): void {
  for (const [name, src] of [
    ['monitoring', config.monitoringScriptUrl],
    ['global-navigator', config.globalNavigatorScriptUrl],
  ] as const) {
    if (!src || document.head.querySelector(`script[data-startup="${name}"]`)) continue;
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.crossOrigin = 'use-credentials';
    script.dataset.startup = name;
    document.head.append(script);
  }
}
