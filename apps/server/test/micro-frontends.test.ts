import { APP_CONFIG_ELEMENT_ID } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, REFERENCE_SCRIPTS } from '../src/config.ts';
import { withAppConfig } from '../src/plugins/web-app.ts';
import { PAGE_VIEWS_PATH } from '../src/routes/micro-frontends.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('start-up configuration and the reference micro-frontends', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('tells the page to load the reference scripts and to derive home and launchpad by default', async () => {
    const response = await fetch(`${server.baseUrl}/app-config.json`);
    expect(await response.json()).toEqual({
      monitoringScriptUrl: '/mfe/monitoring.js',
      globalNavigatorScriptUrl: '/mfe/global-navigator.js',
      supportUrl: 'mailto:support@platform.example',
    });
  });

  it.each([
    [REFERENCE_SCRIPTS.globalNavigator, 'customElements.define'],
    [REFERENCE_SCRIPTS.monitoring, 'sendBeacon'],
  ])('serves %s as JavaScript, revalidated by its ETag', async (path, excerpt) => {
    const response = await fetch(`${server.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain(excerpt);
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${server.baseUrl}${path}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('answers 404 for a script it does not have', async () => {
    expect((await fetch(`${server.baseUrl}/mfe/missing.js`)).status).toBe(404);
  });

  it('takes a page view as a beacon sends it (text/plain JSON) and answers 204', async () => {
    const response = await fetch(`${server.baseUrl}${PAGE_VIEWS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ path: '/', title: 'Users', viewedAt: new Date().toISOString() }),
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('takes a page view as JSON too', async () => {
    const response = await fetch(`${server.baseUrl}${PAGE_VIEWS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/logout', viewedAt: new Date().toISOString() }),
    });
    expect(response.status).toBe(204);
  });

  it.each([
    ['not JSON', 'page view'],
    [
      'a path that is not a path',
      JSON.stringify({ path: 'https://elsewhere.example/', viewedAt: new Date().toISOString() }),
    ],
    ['no time', JSON.stringify({ path: '/' })],
  ])('refuses %s with 400', async (_case, body) => {
    const response = await fetch(`${server.baseUrl}${PAGE_VIEWS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(response.status).toBe(400);
  });

  it('refuses a page view over 4 KB', async () => {
    const response = await fetch(`${server.baseUrl}${PAGE_VIEWS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ path: `/${'a'.repeat(5000)}`, viewedAt: new Date().toISOString() }),
    });
    expect(response.status).toBe(413);
  });
});

describe('the start-up configuration from the environment', () => {
  const base = { DATA_DIR: 'memory://' };

  it('keeps configured addresses, URLs or paths on this server', () => {
    const config = loadConfig({
      ...base,
      HOME_URL: 'https://home.eu.platform.example/',
      LAUNCHPAD_URL: '/launchpad',
      MONITORING_SCRIPT_URL: 'https://usage.example/monitoring.js',
      GLOBAL_NAVIGATOR_SCRIPT_URL: '/mfe/other.js',
      SUPPORT_URL: 'https://support.example/',
    });
    expect(config.app).toEqual({
      homeUrl: 'https://home.eu.platform.example/',
      launchpadUrl: '/launchpad',
      monitoringScriptUrl: 'https://usage.example/monitoring.js',
      globalNavigatorScriptUrl: '/mfe/other.js',
      supportUrl: 'https://support.example/',
    });
  });

  it('turns a script off when its setting is empty', () => {
    expect(loadConfig({ ...base, MONITORING_SCRIPT_URL: '', GLOBAL_NAVIGATOR_SCRIPT_URL: ' ' }).app).toEqual({
      supportUrl: 'mailto:support@platform.example',
    });
  });

  it.each(['javascript:alert(1)', '//elsewhere.example/x.js', 'mfe/x.js', 'ftp://example/x.js'])(
    'refuses %s',
    (value) => {
      expect(() => loadConfig({ ...base, GLOBAL_NAVIGATOR_SCRIPT_URL: value })).toThrow(
        /GLOBAL_NAVIGATOR_SCRIPT_URL: expected an http\(s\) URL, a path starting with \/, or nothing/,
      );
    },
  );
});

describe('withAppConfig', () => {
  it('writes the configuration into the head as inert JSON that no value can break out of', () => {
    const html = '<html><head><title>Users</title></head><body><div id="root"></div></body></html>';
    const out = withAppConfig(html, { homeUrl: 'https://home.example/</script><script>alert(1)</script>' });
    expect(out).toContain(`<script id="${APP_CONFIG_ELEMENT_ID}" type="application/json">`);
    expect(out.match(/<\/script>/g)).toHaveLength(1);
    const json = out.slice(out.indexOf('application/json">') + 18, out.indexOf('</script>'));
    expect(JSON.parse(json)).toEqual({ homeUrl: 'https://home.example/</script><script>alert(1)</script>' });
    expect(out.indexOf('</script>')).toBeLessThan(out.indexOf('</head>'));
  });
});
