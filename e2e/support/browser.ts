import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/**
 * Playwright's own `--disable-features` list (playwright-core 1.65). Chromium honours only the last
 * such flag, so ours repeats it; specs/chromium-flags.spec.ts fails when Playwright adds one.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 loads its omnibox popup's pages in every new window, i.e. in each test's context:
 * about 0.2 s of CPU beside the page under test, which a person's browser, opening it in a window
 * it has, does not spend (docs/performance.md).
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The flags every Chromium of the tests and benchmarks starts with: headless, and no traffic of its own. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
] as const;

/** Debian's Chromium, headless; a missing browser is a failure that says how to install it. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. Install Debian's package: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS],
  });
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1440, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Waits for the identity provider's sign-in page and signs in on it, as a person would. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.waitForURL(/\/interaction\//);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs in through the same flow with the context's own requests, drawing no page: the cookies land
 * in the context. For tests about what comes after; specs/sign-in.spec.ts signs in as a person would.
 */
export async function signInByRequests(
  context: BrowserContext,
  baseUrl: string,
  account: { email: string; password: string },
): Promise<void> {
  const form = await context.request.get(`${baseUrl}/auth/start?post_auth_redirect_path=%2F`);
  const action = /action="([^"]+)"/.exec(await form.text())?.[1];
  if (!action) throw new Error(`no sign-in form at ${form.url()}: ${form.status()}`);
  const landing = await context.request.post(new URL(action, form.url()).href, { form: account });
  if (new URL(landing.url()).pathname !== '/') throw new Error(`sign-in ended at ${landing.url()}`);
}
