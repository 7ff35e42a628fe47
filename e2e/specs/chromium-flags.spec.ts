import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, launchBrowser } from '../support/browser.ts';

// The tests' own Chromium flags (support/browser.ts), checked against what Chromium is given and does.

describe('the Chromium the tests and benchmarks start', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps every feature Playwright turns off: Chromium honours only the last --disable-features', async () => {
    // Chromium tells its command line only to a browser started for automation.
    const told = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, '--enable-automation'],
    });
    try {
      const session = await told.newBrowserCDPSession();
      const { arguments: argv } = await session.send('Browser.getBrowserCommandLine');
      const lists = argv
        .filter((arg) => arg.startsWith('--disable-features='))
        .map((arg) => arg.slice('--disable-features='.length).split(','));
      expect(lists.length).toBeGreaterThan(1);
      const honoured = lists.at(-1) ?? [];
      for (const list of lists) expect(honoured).toEqual(expect.arrayContaining(list));
    } finally {
      await told.close();
    }
  });

  it("opens a test's new window without the omnibox popup's pages", async () => {
    const session = await browser.newBrowserCDPSession();
    const opened: string[] = [];
    session.on('Target.targetCreated', ({ targetInfo }) => opened.push(targetInfo.url));
    await session.send('Target.setDiscoverTargets', { discover: true });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('data:text/html,<title>blank</title>');
    // The popup's pages came about 100 ms after the window when they were on.
    await page.waitForTimeout(1000);
    await context.close();
    expect(opened.filter((url) => url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    expect(opened.length).toBeGreaterThan(0);
  });
});
