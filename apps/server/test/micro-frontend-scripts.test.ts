// @vitest-environment jsdom
// The scripts run in the browser: their tests need the DOM's types, which the server's own code does not use.
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const scriptsDir = path.resolve(import.meta.dirname, '../src/micro-frontends');
/** Runs a reference script the way a script element would, with no module scope. */
function run(file: string) {
  new Function(readFileSync(path.join(scriptsDir, file), 'utf8'))();
}

const fetchMock = vi.fn<typeof fetch>();

function answer(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const bar = () => document.querySelector('global-navigator')?.shadowRoot;

describe('the global navigator', () => {
  beforeAll(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockResolvedValue(answer(200, { name: 'Ada Admin', locale: 'en', sub: 'u1', org_id: 'o', email: 'a' }));
    document.body.innerHTML = '<div id="root"></div>';
    run('global-navigator.js');
  });

  it('puts itself at the top of the page when the page did not place it', () => {
    expect(customElements.get('global-navigator')).toBeDefined();
    expect(document.body.firstElementChild?.tagName).toBe('GLOBAL-NAVIGATOR');
    expect(document.querySelectorAll('global-navigator')).toHaveLength(1);
  });

  it('shows the product name, the signed-in name and a Sign out link to /logout', async () => {
    await vi.waitFor(() => expect(bar()?.querySelector('.user')?.textContent).toBe('Ada Admin'));
    expect(fetchMock).toHaveBeenCalledWith(
      new URL('/apis/oidc/userinfo', location.href).href,
      expect.objectContaining({ credentials: 'include' }),
    );
    expect(bar()?.querySelector('nav')?.getAttribute('aria-label')).toBe('Global navigation');
    expect(bar()?.querySelector('.product')?.textContent).toBe('Governance Platform');
    const signOut = bar()?.querySelector('a');
    expect(signOut?.textContent).toBe('Sign out');
    expect(signOut?.getAttribute('href')).toBe('/logout');
  });

  it('renders where the page placed it, a name as text only, in the language of the session', async () => {
    fetchMock.mockResolvedValue(answer(200, { name: '<img src=x onerror=alert(1)>', locale: 'de-DE' }));
    // A new lookup, as after a silent sign-in.
    window.dispatchEvent(
      new MessageEvent('message', { data: { type: 'oidc_callback', status: 'success' }, origin: location.origin }),
    );
    await vi.waitFor(() => expect(bar()?.querySelector('a')?.textContent).toBe('Abmelden'));
    expect(bar()?.querySelector('.user')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(bar()?.querySelector('img')).toBeNull();
    expect(bar()?.querySelector('nav')?.getAttribute('aria-label')).toBe('Globale Navigation');

    const placed = document.createElement('global-navigator');
    document.getElementById('root')?.before(placed);
    await vi.waitFor(() => expect(placed.shadowRoot?.querySelector('.user')?.textContent).toContain('<img'));
  });

  it('shows no name and no Sign out link without a session', async () => {
    fetchMock.mockResolvedValue(answer(400, { error: 'invalid_request' }));
    window.dispatchEvent(
      new MessageEvent('message', { data: { type: 'oidc_callback', status: 'success' }, origin: location.origin }),
    );
    await vi.waitFor(() => expect(bar()?.querySelector('a')).toBeNull());
    expect(bar()?.querySelector('.user')?.textContent).toBe('');
    expect(bar()?.querySelector('.product')?.textContent).toBe('Governance Platform');
  });

  it('ignores messages from other origins', async () => {
    const calls = fetchMock.mock.calls.length;
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'oidc_callback', status: 'success' },
        origin: 'https://evil.example',
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});

describe('the monitoring script', () => {
  const beacons: { url: string; body: Record<string, unknown> }[] = [];

  beforeAll(() => {
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: (url: string, data: Blob) => {
        void data.text().then((text) => beacons.push({ url, body: JSON.parse(text) }));
        expect(data.type).toBe('text/plain');
        return true;
      },
    });
    document.title = 'Users';
    history.replaceState(null, '', '/?search=ada%40acme.example');
    run('monitoring.js');
  });
  afterEach(() => {
    beacons.length = 0;
  });

  it('records the first page view by path and title, without the query', async () => {
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
    expect(beacons[0]?.url).toBe(new URL('/apis/monitoring/page-views', location.href).href);
    expect(beacons[0]?.body).toEqual({ path: '/', title: 'Users', viewedAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(String(beacons[0]?.body.viewedAt)))).toBe(false);
  });

  it('records a view per change of path, not per change of query', async () => {
    history.pushState(null, '', '/?page=2');
    history.replaceState(null, '', '/?page=3');
    history.pushState(null, '', '/logout');
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
    expect(beacons[0]?.body.path).toBe('/logout');
    history.back();
    await vi.waitFor(() => expect(beacons.map((beacon) => beacon.body.path)).toEqual(['/logout', '/']));
  });

  it('does not record twice when loaded twice', async () => {
    run('monitoring.js');
    history.pushState(null, '', '/elsewhere');
    await vi.waitFor(() => expect(beacons).toHaveLength(1));
  });
});
