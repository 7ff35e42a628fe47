import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '@users-admin/contract';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  /** The start-up scripts: their hosts may serve scripts and receive what the scripts send. */
  app: AppConfig;
  /** An external identity provider: the silent sign-in frame visits it. */
  externalIssuer: string | undefined;
  /** `PUBLIC_URL` is https: browsers are told to stay on https. */
  https: boolean;
}

/** The origin of an absolute http(s) URL; undefined for a path on this server or nothing. */
export function originOf(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url) || !URL.canParse(url)) return undefined;
  return new URL(url).origin;
}

/**
 * The Content-Security-Policy of every answer (page, API, identity provider): scripts from this
 * server and the hosts of the two start-up scripts only, never inline; styles may be inline
 * because MUI (emotion) and the global navigator's shadow root inject style elements; only this
 * server may frame its pages (the silent sign-in frame).
 */
export function contentSecurityPolicy(options: SecurityHeadersOptions): Record<string, string[]> {
  const scriptOrigins = [originOf(options.app.monitoringScriptUrl), originOf(options.app.globalNavigatorScriptUrl)];
  const scriptHosts = [...new Set(scriptOrigins.filter((origin): origin is string => Boolean(origin)))];
  const issuer = originOf(options.externalIssuer);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHosts],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    // The start-up scripts report to, and ask the session of, the server they come from.
    'connect-src': ["'self'", ...scriptHosts],
    'frame-src': ["'self'", ...(issuer ? [issuer] : [])],
    'form-action': ["'self'", ...(issuer ? [issuer] : [])],
    'frame-ancestors': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** helmet 8 with our policy, as a function that sets the headers on a raw response. */
export function createSecurityHeaders(options: SecurityHeadersOptions) {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only means something on https; on a plain-http address browsers ignore it anyway.
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  return (request: IncomingMessage, response: ServerResponse) =>
    middleware(request, response, (error?: unknown) => {
      if (error) throw error;
    });
}
