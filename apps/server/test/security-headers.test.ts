import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../src/plugins/security-headers.ts';
import { CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The CSP as a map of directive to its sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name, values);
  }
  return directives;
}

/** The security headers every answer carries, whoever made it. */
function expectSecurityHeaders(response: Response, what: string) {
  const csp = parseCsp(response.headers.get('content-security-policy'));
  // 'self', plus the hash of an exact inline script where oidc-provider writes one (see below).
  const [self, ...hashes] = csp.get('script-src') ?? [];
  expect(self, what).toBe("'self'");
  for (const hash of hashes) expect(hash, what).toMatch(/^'sha256-[A-Za-z0-9+/]+={0,2}'$/);
  expect(csp.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'self'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(response.headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
  expect(response.headers.get('x-powered-by'), what).toBeNull();
  // Plain http: no HSTS (it would mean nothing) and no upgrade of requests.
  expect(response.headers.get('strict-transport-security'), what).toBeNull();
  expect(csp.has('upgrade-insecure-requests'), what).toBe(false);
}

/** The inline scripts of a page (those without src and not inert JSON). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (match) => match[1] ?? '',
  );
}

/** An HTML page that a CSP without 'unsafe-inline' scripts runs as intended: no inline script at all. */
function expectNoInlineScript(html: string, what: string) {
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    expect(/\bsrc=|type="application\/json"/.test(tag), `${what}: ${tag}`).toBe(true);
  }
  expect(html, what).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html, what).not.toMatch(/javascript:/i);
}

/** The identity provider's pages use our stylesheet only. */
function expectNoInlineStyle(html: string, what: string) {
  expect(html, what).not.toMatch(/<style\b|\sstyle\s*=/i);
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const get = (url: string, init: RequestInit = {}) =>
    fetch(new URL(url, server.baseUrl), { redirect: 'manual', ...init });

  it('are on every kind of answer: page, API, errors, scripts, sign-in flow, identity provider', async () => {
    const answers: [string, Response][] = [];
    for (const url of [
      '/',
      '/some/page/route',
      '/app-config.json',
      '/apis/openapi.json',
      '/apis/oidc/userinfo',
      '/apis/accounts/api/v3/orgs/01900000-0000-7000-8000-000000000001/users',
      '/apis/accounts/api/v3/orgs/not-an-id/users',
      '/apis/nothing-here',
      '/%',
      `/apis/accounts/api/v3/orgs/${'x'.repeat(200)}/users`,
      '/mfe/global-navigator.js',
      '/mfe/monitoring.js',
      '/auth/start',
      '/auth/callback?code=x&state=y',
      '/auth/logout',
      '/idp/.well-known/openid-configuration',
      '/idp/jwks',
      '/idp/auth?client_id=unknown',
      '/idp/session/end',
      '/interaction/idp.css',
      '/interaction/no-such-interaction',
    ]) {
      answers.push([url, await get(url)]);
    }
    answers.push([
      'POST /apis/monitoring/page-views',
      await get('/apis/monitoring/page-views', {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'text/plain' },
      }),
    ]);
    for (const [what, response] of answers) expectSecurityHeaders(response, `${what} (${response.status})`);
  });

  it('are on the sign-in, organisation choice, sign-out and signed-out pages, which have no inline script or style', async () => {
    const jar = new CookieJar();
    const signInPage = await jar.follow(`${server.baseUrl}/auth/start`);
    const signInHtml = await signInPage.text();
    expect(signInHtml).toContain('<form method="post"');
    expectSecurityHeaders(signInPage, 'sign-in page');
    expectNoInlineScript(signInHtml, 'sign-in page');
    expectNoInlineStyle(signInHtml, 'sign-in page');

    const { landing } = await signIn(server.baseUrl, 'pat@partners.example', 'pat');
    const chooseHtml = await landing.text();
    expect(chooseHtml).toContain('name="membership"');
    expectSecurityHeaders(landing, 'organisation choice');
    expectNoInlineScript(chooseHtml, 'organisation choice');
    expectNoInlineStyle(chooseHtml, 'organisation choice');

    // The provider asks for confirmation when the sign-out request does not prove who asks.
    const { jar: admin } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    const confirm = await admin.follow(`${server.baseUrl}/idp/session/end`);
    const confirmHtml = await confirm.text();
    expect(confirmHtml).toContain('op.logoutForm');
    expectSecurityHeaders(confirm, 'sign-out confirmation');
    expectNoInlineScript(confirmHtml, 'sign-out confirmation');
    expectNoInlineStyle(confirmHtml, 'sign-out confirmation');

    const action = /action="([^"]+)"/.exec(confirmHtml)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmHtml)?.[1] ?? '';
    const signedOut = await admin.follow(new URL(action, server.baseUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expectSecurityHeaders(signedOut, 'after sign-out');
    expectNoInlineScript(await signedOut.text(), 'after sign-out');
  });

  it("allows the provider's one inline script (the auto-submitted sign-out) by its exact hash, nothing else", async () => {
    const response = await get('/idp/session/end');
    const html = await response.text();
    const scripts = inlineScripts(html);
    expect(scripts).toHaveLength(1);
    const [, ...hashes] = parseCsp(response.headers.get('content-security-policy')).get('script-src') ?? [];
    expect(hashes).toEqual([
      `'sha256-${createHash('sha256')
        .update(scripts[0] ?? '')
        .digest('base64')}'`,
    ]);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('are on the identity provider error pages, which have no inline script or style', async () => {
    for (const url of ['/idp/auth?client_id=unknown', '/interaction/no-such-interaction', '/auth/callback']) {
      const response = await get(url, { headers: { accept: 'text/html' } });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expectSecurityHeaders(response, url);
      const body = await response.text();
      expectNoInlineScript(body, url);
      expectNoInlineStyle(body, url);
    }
  });

  const webDist = path.resolve(import.meta.dirname, '../../web/dist/index.html');
  // `npm test` builds the page before the API tests; only a bare `npm run test:api` may lack it, never CI.
  it.skipIf(!existsSync(webDist) && !process.env.CI)(
    'serves a built page whose only inline script is inert configuration JSON',
    async () => {
      const page = await get('/');
      const html = await page.text();
      expect(html).toContain('<script id="app-config" type="application/json">');
      expectNoInlineScript(html, 'index.html');
    },
  );
});

describe('the Content-Security-Policy from configuration', () => {
  it('allows the hosts of absolute start-up script URLs to serve scripts and receive their reports', () => {
    const csp = contentSecurityPolicy({
      app: {
        monitoringScriptUrl: 'https://monitoring.example/usage.js?v=2',
        globalNavigatorScriptUrl: 'https://nav.example:8443/mfe/navigator.js',
      },
      externalIssuer: undefined,
      https: false,
    });
    expect(csp['script-src']).toEqual(["'self'", 'https://monitoring.example', 'https://nav.example:8443']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://monitoring.example', 'https://nav.example:8443']);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('allows nothing more for scripts on this server or turned off', () => {
    const csp = contentSecurityPolicy({
      app: { monitoringScriptUrl: '/mfe/monitoring.js' },
      externalIssuer: undefined,
      https: false,
    });
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-src']).toEqual(["'self'"]);
  });

  it('lets the silent sign-in frame visit an external identity provider, and upgrades requests on https', () => {
    const csp = contentSecurityPolicy({ app: {}, externalIssuer: 'https://login.example/realms/x', https: true });
    expect(csp['frame-src']).toEqual(["'self'", 'https://login.example']);
    expect(csp['form-action']).toEqual(["'self'", 'https://login.example']);
    expect(csp['upgrade-insecure-requests']).toEqual([]);
  });

  it('names script hosts in the header of a server configured with them', async () => {
    const configured = await startTestServer({
      MONITORING_SCRIPT_URL: 'https://monitoring.example/usage.js',
      GLOBAL_NAVIGATOR_SCRIPT_URL: 'https://nav.example/navigator.js',
    });
    try {
      const response = await fetch(`${configured.baseUrl}/app-config.json`);
      const csp = parseCsp(response.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toEqual(["'self'", 'https://monitoring.example', 'https://nav.example']);
    } finally {
      await configured.close();
    }
  });
});
