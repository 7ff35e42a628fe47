import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, signInAs } from '../support/browser.ts';
import { type RunningServer, startServer } from '../support/server.ts';

/** Access tokens live 10 s (the least the server accepts), so the test can see a silent renewal. */
const ACCESS_TOKEN_TTL_SECONDS = 10;

interface Violation {
  directive: string;
  blocked: string;
  where: string;
}

/**
 * Records every Content-Security-Policy violation of every frame (the page and the silent sign-in
 * frame): the browser's securitypolicyviolation events and its "Refused to …" console messages.
 */
async function watchViolations(context: BrowserContext, page: Page): Promise<{ all: () => string[] }> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) console.push(message.text());
  });
  await context.exposeBinding('__reportCspViolation', (_source, violation: Violation) => {
    console.push(`${violation.directive} blocked ${violation.blocked} on ${violation.where}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (v: Violation) => void }).__reportCspViolation;
      report?.({ directive: event.effectiveDirective, blocked: event.blockedURI, where: location.pathname });
    });
  });
  return { all: () => [...console] };
}

describe('the Content-Security-Policy in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL_SECONDS) }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('breaks nothing: sign-in, the Users page with both start-up scripts, a silent sign-in, sign-out', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchViolations(context, page);

    // Sign-in at the identity provider, back to the Users page.
    await page.goto(`${server.baseUrl}/`);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText('1–25 of 423', { exact: true }).waitFor();
    // Both start-up scripts ran: the global navigator rendered (its shadow root has a style element).
    const bar = page.getByRole('navigation', { name: 'Global navigation' });
    await bar.getByRole('link', { name: 'Sign out' }).waitFor();
    const csp = (await page.request.get(`${server.baseUrl}/`)).headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);

    // The access token expires; the next look-up renews it in the hidden frame.
    await page.waitForTimeout(ACCESS_TOKEN_TTL_SECONDS * 1000 + 500);
    const silentSignIn = page.waitForRequest((request) => request.url().includes('callback_mode=silent'));
    const frameCallback = page.waitForRequest((request) => new URL(request.url()).pathname === '/oidc/callback');
    await page.reload();
    await silentSignIn;
    expect(new URL((await frameCallback).url()).searchParams.get('status')).toBe('success');
    await page.getByText('1–25 of 423', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Sign-out at the identity provider (through its confirmation page when it shows one), and
    // back to its sign-in page.
    await bar.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(/\/idp\/session\/end|\/interaction\//);
    if (new URL(page.url()).pathname.startsWith('/idp/session/end')) {
      await page.getByRole('button', { name: 'Sign out' }).click();
    }
    await page.waitForURL(/\/interaction\//);
    await page.getByLabel('Email').waitFor();

    expect(violations.all()).toEqual([]);
    await context.close();
  });

  it('is enforced: an inline script injected into the page does not run, and the test would see it', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchViolations(context, page);
    await page.goto(`${server.baseUrl}/`);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.head.append(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.all().some((line) => /script-src/.test(line)), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('keeps other sites from framing the page', async () => {
    const { context, page } = await newPage(browser);
    const framed: string[] = [];
    page.on('console', (message) => framed.push(message.text()));
    // A page of another origin (about:blank here) that frames the Users page.
    await page.setContent(`<iframe src="${server.baseUrl}/"></iframe>`);
    await expect
      .poll(() => framed.some((line) => /violates[^"]*"frame-ancestors 'self'"/.test(line)), { timeout: 15_000 })
      .toBe(true);
    expect(page.frames()[1]?.url()).toBe('chrome-error://chromewebdata/');
    await context.close();
  });
});
