// The page benchmark's measures in Chromium: cold and warm loads, taking turns, and the time from
// an input to the changed rows on screen (page-bench.ts runs them and reports).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { StorageState } from '../support/seeded-server.ts';
import { DEBOUNCE_MS } from './page-report.ts';
import { type Bench, firstRowAt, interactiveAt, newContext, searchWorksAt } from './probe.ts';

export const RUNS = Math.max(5, Number(process.env.BENCH_PAGE_RUNS ?? 11));
export const resultsDir = path.resolve(import.meta.dirname, '../../bench-results');
export const ms = (value: number) => value.toFixed(0);
export const log = (message: string) => console.log(`[page-bench] ${message}`);

/** Time from the input `act` makes (its keydown or pointerdown) to the changed rows on screen. */
async function inputToRows(page: Page, label: string, act: () => Promise<void>): Promise<number> {
  const before = await page.evaluate(() =>
    (window as unknown as { __bench: { rowsSignature: () => string } }).__bench.rowsSignature(),
  );
  const changed = page.evaluate(
    (signature) =>
      (window as unknown as { __bench: { rowsChange: (s: string) => Promise<number> } }).__bench.rowsChange(signature),
    before,
  );
  await act();
  const at = await Promise.race([
    changed,
    new Promise<never>((_, reject) =>
      setTimeout(async () => {
        mkdirSync(resultsDir, { recursive: true });
        const file = path.join(resultsDir, `page-${label.replace(/\W+/g, '-')}-failure.png`);
        await page.screenshot({ path: file }).catch(() => undefined);
        reject(new Error(`${label}: the rows did not change in 10 s (screenshot ${file})`));
      }, 10_000),
    ),
  ]);
  const input = await page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.lastInput);
  if (input === undefined) throw new Error('no input was seen');
  return at - input;
}

export interface LoadTimes {
  cold: number[];
  warm: number[];
  /** Navigation start → the search box works, and all the page's controls, cold and warm. */
  coldSearch: number[];
  warmSearch: number[];
  coldInteractive: number[];
  warmInteractive: number[];
  /** Script run (Chromium's ScriptDuration) by the time every control works, cold. */
  coldScriptMs: number[];
  /** Script and style files the first cold load fetched before its first user row, and before every control worked. */
  assetsBeforeFirstRow: string[];
  assetsBeforeInteractive: string[];
}

interface LoadTarget {
  label: string;
  url: string;
  state: StorageState;
  /** Only cold loads (a first visit). */
  coldOnly?: boolean;
}

/**
 * Navigation start → first user row of each target: a new context (cold cache) per run, then,
 * unless `coldOnly`, reloads of one (warm). The targets take turns within each run, in an order
 * that alternates from run to run, so that a ratio of two of them compares loads made under the same
 * load of the shared machine rather than minutes apart.
 */
export async function measureLoads(browser: Browser, targets: LoadTarget[]): Promise<LoadTimes[]> {
  const times: LoadTimes[] = targets.map(() => ({
    cold: [],
    warm: [],
    coldSearch: [],
    warmSearch: [],
    coldInteractive: [],
    warmInteractive: [],
    coldScriptMs: [],
    assetsBeforeFirstRow: [],
    assetsBeforeInteractive: [],
  }));
  const inTurn = (run: number) => (run % 2 ? [...targets.keys()].reverse() : [...targets.keys()]);
  for (let run = 0; run < RUNS; run++) {
    for (const index of inTurn(run)) {
      const { url, state } = targets[index] as LoadTarget;
      const result = times[index] as LoadTimes;
      const context = await newContext(browser, state);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const assets: { url: string; at: number }[] = [];
      const started = Date.now();
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type === 'script' || type === 'stylesheet') assets.push({ url: response.url(), at: Date.now() - started });
      });
      await page.goto(url);
      const at = await firstRowAt(page);
      result.cold.push(at);
      result.coldSearch.push(await searchWorksAt(page));
      const interactive = await interactiveAt(page);
      result.coldInteractive.push(interactive);
      const { metrics } = await cdp.send('Performance.getMetrics');
      result.coldScriptMs.push((metrics.find((m) => m.name === 'ScriptDuration')?.value ?? Number.NaN) * 1000);
      if (run === 0) {
        const before = (moment: number) =>
          assets.filter((a) => a.at <= moment + 50).map((a) => new URL(a.url).pathname);
        result.assetsBeforeFirstRow = before(at);
        result.assetsBeforeInteractive = before(interactive);
      }
      await context.close();
    }
  }
  const warmPages: (Page | undefined)[] = [];
  for (const { url, state, coldOnly } of targets) {
    if (coldOnly) {
      warmPages.push(undefined);
      continue;
    }
    const page = await (await newContext(browser, state)).newPage();
    await page.goto(url);
    await firstRowAt(page);
    warmPages.push(page);
  }
  for (let run = 0; run < RUNS; run++) {
    for (const index of inTurn(run)) {
      const page = warmPages[index];
      if (!page) continue;
      await page.reload();
      times[index]?.warm.push(await firstRowAt(page));
      times[index]?.warmSearch.push(await searchWorksAt(page));
      times[index]?.warmInteractive.push(await interactiveAt(page));
    }
  }
  for (const page of warmPages) await page?.context().close();
  for (const [index, { label, coldOnly }] of targets.entries()) {
    const { cold, warm } = times[index] as LoadTimes;
    log(`${label}: cold ${cold.map(ms).join(', ')} ms${coldOnly ? '' : `; warm ${warm.map(ms).join(', ')} ms`}`);
  }
  return times;
}

/** A keystroke, a page change and a sort change → new rows on screen, each after a fresh load (warm cache). */
export async function measureInteractions(browser: Browser, url: string, state: StorageState, letter: string) {
  const keystroke: number[] = [];
  const pageChange: number[] = [];
  const sortChange: number[] = [];
  const context = await newContext(browser, state);
  const page = await context.newPage();
  await page.goto(url);
  await firstRowAt(page);
  // The page keeps its state in the URL: each measure starts from the plain address again.
  const fresh = async () => {
    await page.goto(url);
    await interactiveAt(page);
  };
  for (let run = 0; run < RUNS; run++) {
    await fresh();
    pageChange.push(
      await inputToRows(page, 'page change', () =>
        page.getByRole('button', { name: 'Go to next page' }).first().click(),
      ),
    );
    await fresh();
    sortChange.push(
      await inputToRows(page, 'sort change', () =>
        page.getByRole('button', { name: /^User( ?, sorted (A to Z|Z to A))?$/ }).click(),
      ),
    );
    await fresh();
    const search = page.getByRole('searchbox', { name: 'Search name or email' });
    await search.focus();
    keystroke.push(await inputToRows(page, 'keystroke', () => page.keyboard.press(letter)));
  }
  await context.close();
  log(`page change ${pageChange.map(ms).join(', ')} ms`);
  log(`sort change ${sortChange.map(ms).join(', ')} ms`);
  log(`keystroke (incl. the ${DEBOUNCE_MS} ms debounce) ${keystroke.map(ms).join(', ')} ms`);
  return { keystroke, pageChange, sortChange };
}
