// The page benchmarks' probe: scripted into each page before the page's own code, it notes when
// the first user row is painted, when the search box and all the page's controls work and when the
// rows change after an input.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { StorageState } from '../support/seeded-server.ts';

/**
 * In the page before its own code: when user rows (rows with an email) first appear, and when the
 * rows on screen change after an input. Times are `performance.now()`, whose origin is the
 * navigation start; a change counts at the animation frame after it, when it is painted.
 */
// A string, not a function: tsx would name the function's inner functions with a helper the
// browser does not have.
export const probe = `(() => {
  const rowsSignature = () => {
    let signature = '';
    for (const row of document.querySelectorAll('main table tbody tr')) {
      const text = row.textContent || '';
      if (text.includes('@')) signature += text + '\\n';
    }
    return signature;
  };
  const bench = { firstRow: undefined, searchWorks: undefined, interactive: undefined, lastInput: undefined, rowsSignature };
  window.__bench = bench;
  const onInput = (event) => { bench.lastInput = event.timeStamp; };
  addEventListener('keydown', onInput, true);
  addEventListener('pointerdown', onInput, true);
  let waiting;
  bench.rowsChange = (before) => new Promise((resolve) => { waiting = { before, resolve }; });
  new MutationObserver(() => {
    const signature = bench.firstRow === undefined || waiting ? rowsSignature() : '';
    if (bench.firstRow === undefined && signature) {
      bench.firstRow = null;
      requestAnimationFrame(() => { bench.firstRow = performance.now(); });
    }
    // Every control works once none is inert and the footer, whose code loads apart, is there too.
    const search = document.querySelector('main input[type=search]');
    const footer = !document.querySelector('main .MuiTable-root') || document.querySelector('main .MuiTablePagination-root');
    const allWork = !document.querySelector('#root[inert], #root [inert]') && !!footer;
    if (bench.firstRow !== undefined && bench.searchWorks === undefined && (search ? !search.closest('[inert]') : allWork)) {
      bench.searchWorks = null;
      requestAnimationFrame(() => { bench.searchWorks = performance.now(); });
    }
    if (bench.firstRow !== undefined && bench.interactive === undefined && allWork) {
      bench.interactive = null;
      requestAnimationFrame(() => { bench.interactive = performance.now(); });
    }
    if (waiting && signature && signature !== waiting.before) {
      const { resolve } = waiting;
      waiting = undefined;
      requestAnimationFrame(() => resolve(performance.now()));
    }
  }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['inert'] });
})();`;

export type Bench = {
  firstRow: number | null | undefined;
  searchWorks: number | null | undefined;
  interactive: number | null | undefined;
  lastInput: number | undefined;
};

/** The time the probe noted for `moment`, once it has noted it. */
export async function notedAt(page: Page, moment: 'firstRow' | 'searchWorks' | 'interactive'): Promise<number> {
  await page.waitForFunction(
    (key) => typeof (window as unknown as { __bench: Bench }).__bench?.[key] === 'number',
    moment,
    { timeout: 30_000 },
  );
  return page.evaluate((key) => (window as unknown as { __bench: Bench }).__bench[key] as number, moment);
}

/** Navigation start → the first user row on screen. */
export const firstRowAt = (page: Page) => notedAt(page, 'firstRow');
/** Navigation start → the search box is there and not inert. */
export const searchWorksAt = (page: Page) => notedAt(page, 'searchWorks');
/** Navigation start → all the page's controls work: none inert, the footer there. */
export const interactiveAt = (page: Page) => notedAt(page, 'interactive');

export async function newContext(browser: Browser, state: StorageState): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
  await context.addInitScript({ content: probe });
  return context;
}
