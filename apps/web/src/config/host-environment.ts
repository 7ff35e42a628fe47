/** The platform's regions (SPEC.md §9); a host name that names none is in the default one. */
export const REGIONS = ['af', 'ap', 'au', 'ca', 'eu', 'jp', 'sa', 'uk', 'us'] as const;
export type Region = (typeof REGIONS)[number];
export const DEFAULT_REGION: Region = 'us';

export const LOCAL_ENVIRONMENT = 'local';
export const PRODUCTION_ENVIRONMENT = 'production';

export interface HostEnvironment {
  /** 'local', 'production', or the environment label of the host name ('staging', 'dev', …). */
  environment: string;
  region: Region;
}

function isRegion(label: string | undefined): label is Region {
  return (REGIONS as readonly string[]).includes(label ?? '');
}

/** localhost and its subdomains, IP addresses (v4, or v6 with colons) and single-label names. */
function isLocalHost(hostname: string, labels: string[]): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.includes(':') ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) ||
    labels.length < 3
  );
}

function labelsOf(hostname: string): { host: string; labels: string[] } {
  const host = hostname.trim().toLowerCase().replace(/\.$/, '');
  return { host, labels: host.split('.') };
}

/**
 * Environment and region from the page's host name (README.md, "Host names"). The platform's
 * applications live at
 *
 *     <app>[.<environment>][.<region>].<domain>.<tld>
 *
 * - `users.platform.example` → production, us; `users.eu.platform.example` → production, eu;
 * - `users.staging.jp.platform.example` → staging, jp; `users.dev.platform.example` → dev, us;
 * - `localhost`, `*.localhost`, IP addresses and single-label names → local, us.
 *
 * The domain is its last two labels, so a label there that happens to be a region (`.uk`) is not one.
 */
export function hostEnvironment(hostname: string): HostEnvironment {
  const { host, labels } = labelsOf(hostname);
  if (isLocalHost(host, labels)) return { environment: LOCAL_ENVIRONMENT, region: DEFAULT_REGION };
  const between = labels.slice(1, -2);
  const last = between.at(-1);
  const region = isRegion(last) ? last : DEFAULT_REGION;
  const environmentLabel = isRegion(last) ? between.at(-2) : last;
  return { environment: environmentLabel || PRODUCTION_ENVIRONMENT, region };
}

export interface PlatformAddresses {
  homeUrl: string;
  launchpadUrl: string;
}

/**
 * The home application and the launchpad beside this page: the same host name with `home` or
 * `launchpad` for the app label (`users.eu.platform.example` → `home.eu.platform.example`), same
 * protocol and port. A local page has neither beside it, so both are its own root.
 */
export function platformAddresses(location: Pick<Location, 'protocol' | 'hostname' | 'port'>): PlatformAddresses {
  const { host, labels } = labelsOf(location.hostname);
  if (isLocalHost(host, labels)) return { homeUrl: '/', launchpadUrl: '/' };
  const sibling = (app: string) =>
    `${location.protocol}//${[app, ...labels.slice(1)].join('.')}${location.port ? `:${location.port}` : ''}/`;
  return { homeUrl: sibling('home'), launchpadUrl: sibling('launchpad') };
}
