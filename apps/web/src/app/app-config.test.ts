import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  GLOBAL_NAVIGATOR_TAG,
  loadAppConfig,
  loadStartupScripts,
  parseAppConfig,
  readInlineAppConfig,
  resolveAppConfig,
} from './app-config.ts';

const SCRIPTS = { monitoringScriptUrl: '/mfe/monitoring.js', globalNavigatorScriptUrl: '/mfe/global-navigator.js' };

function startupScripts() {
  return [...document.head.querySelectorAll<HTMLScriptElement>('script[data-startup]')];
}

afterEach(() => {
  document.documentElement.removeAttribute('style');
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('parseAppConfig', () => {
  it('keeps the known non-empty string fields only', () => {
    expect(parseAppConfig({ homeUrl: '/home', launchpadUrl: 3, monitoringScriptUrl: '', other: 'x' })).toEqual({
      homeUrl: '/home',
    });
    expect(parseAppConfig(null)).toEqual({});
    expect(parseAppConfig('text')).toEqual({});
  });
});

describe('readInlineAppConfig', () => {
  it('reads the configuration the server wrote into the page', () => {
    document.head.innerHTML = `<script id="app-config" type="application/json">${JSON.stringify(SCRIPTS)}</script>`;
    expect(readInlineAppConfig()).toEqual(SCRIPTS);
  });

  it('has nothing when the page has no such element or it is broken', () => {
    expect(readInlineAppConfig()).toBeUndefined();
    document.head.innerHTML = '<script id="app-config" type="application/json">{broken</script>';
    expect(readInlineAppConfig()).toBeUndefined();
  });
});

describe('loadAppConfig', () => {
  it('uses the inline configuration without a request', async () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    document.head.innerHTML = `<script id="app-config" type="application/json">${JSON.stringify(SCRIPTS)}</script>`;
    await expect(loadAppConfig()).resolves.toEqual(SCRIPTS);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks /app-config.json when the page has none (the Vite dev server)', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => Response.json({ homeUrl: 'https://home.example/' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(loadAppConfig()).resolves.toEqual({ homeUrl: 'https://home.example/' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/app-config.json');
  });

  it('goes on with the defaults when the configuration cannot be read', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('down', { status: 503 })),
    );
    await expect(loadAppConfig()).resolves.toEqual({});
    expect(console.warn).toHaveBeenCalled();
  });
});

describe('resolveAppConfig', () => {
  const production = { protocol: 'https:', hostname: 'users.eu.platform.example', port: '' };

  it('derives home and launchpad from the host name when they are not configured', () => {
    expect(resolveAppConfig(SCRIPTS, production)).toEqual({
      ...SCRIPTS,
      homeUrl: 'https://home.eu.platform.example/',
      launchpadUrl: 'https://launchpad.eu.platform.example/',
    });
    expect(resolveAppConfig({}, { protocol: 'http:', hostname: '127.0.0.1', port: '3000' })).toEqual({
      homeUrl: '/',
      launchpadUrl: '/',
    });
  });

  it('keeps configured addresses', () => {
    expect(resolveAppConfig({ homeUrl: '/home', launchpadUrl: 'https://launch.example/' }, production)).toEqual({
      homeUrl: '/home',
      launchpadUrl: 'https://launch.example/',
    });
  });
});

describe('loadStartupScripts', () => {
  it('adds both scripts to the head with credentials, monitoring first, once each', () => {
    loadStartupScripts(SCRIPTS);
    loadStartupScripts(SCRIPTS);
    const scripts = startupScripts();
    expect(scripts.map((script) => script.getAttribute('src'))).toEqual([
      '/mfe/monitoring.js',
      '/mfe/global-navigator.js',
    ]);
    for (const script of scripts) {
      expect(script.getAttribute('crossorigin')).toBe('use-credentials');
      expect(script.async).toBe(true);
    }
  });

  it('reserves the global navigator a header-high place at the top of the body', () => {
    document.body.innerHTML = '<div id="root"></div>';
    loadStartupScripts(SCRIPTS);
    const place = document.body.firstElementChild as HTMLElement;
    expect(place.tagName.toLowerCase()).toBe(GLOBAL_NAVIGATOR_TAG);
    expect(place.style.minHeight).toBe('64px');
    expect(place.style.display).toBe('block');
    expect(document.documentElement.style.getPropertyValue('--global-navigator-height')).toBe('64px');
    loadStartupScripts(SCRIPTS);
    expect(document.querySelectorAll(GLOBAL_NAVIGATOR_TAG)).toHaveLength(1);
  });

  it('skips what is not configured', () => {
    loadStartupScripts({ monitoringScriptUrl: '/mfe/monitoring.js' });
    expect(startupScripts()).toHaveLength(1);
    expect(document.querySelector(GLOBAL_NAVIGATOR_TAG)).toBeNull();
    document.head.innerHTML = '';
    loadStartupScripts({});
    expect(startupScripts()).toHaveLength(0);
  });

  it('logs a script that fails, and gives the navigator place back', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    loadStartupScripts(SCRIPTS);
    for (const script of startupScripts()) script.dispatchEvent(new Event('error'));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]?.[0]).toMatch(
      /global-navigator script could not be loaded from \/mfe\/global-navigator\.js/,
    );
    expect(document.querySelector(GLOBAL_NAVIGATOR_TAG)).toBeNull();
    expect(document.documentElement.style.getPropertyValue('--global-navigator-height')).toBe('');
  });
});
