// `npx tsx e2e/bench/profile-interaction.ts [page|sort|key|load]`: where the page's main thread spends
// an interaction, from Chromium's CPU profiler, resolved through the production bundle's source
// maps: self time by source module and by function, summed over PROFILE_RUNS runs. A tool for
// finding what to make faster; `npm run bench:page` is what measures against budgets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { launchBrowser, newPage, signInAs } from '../support/browser.ts';
import { startServer } from '../support/server.ts';

const kind = process.argv[2] ?? 'page';
const RUNS = Number(process.env.PROFILE_RUNS ?? 5);
const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const consumers = new Map<string, SourceMapConsumer | undefined>();
function original(url: string, line: number, column: number): { source: string; name: string } {
  const file = url.startsWith('http') ? new URL(url).pathname : '';
  if (!file.endsWith('.js')) return { source: url || '(native)', name: '' };
  // A script's compilation or top level, before any function.
  if (line < 0) return { source: file, name: '(script)' };
  if (!consumers.has(file)) {
    try {
      consumers.set(file, new SourceMapConsumer(JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8'))));
    } catch {
      consumers.set(file, undefined);
    }
  }
  const position = consumers.get(file)?.originalPositionFor({ line: line + 1, column });
  return { source: position?.source ?? file, name: position?.name ?? '' };
}

const short = (source: string) =>
  source
    .replace(/^.*node_modules\//, '')
    .replace(/^.*apps\/web\/src\//, 'src/')
    .replace(/^(\.\.\/)+src\//, 'src/')
    .replace(/\/(esm|node|dist|cjs)\/.*$/, '');

/** The text of the user rows (rows with an email): changes when the rows on screen change. */
const rowsText = (page: Page) =>
  page.evaluate(() => {
    let text = '';
    for (const row of document.querySelectorAll('main table tbody tr')) {
      if (row.textContent?.includes('@')) text += `${row.textContent}\n`;
    }
    return text;
  });

// Long as one script: the server, the browser and the profile of one interaction, in order.
async function main() {
  const server = await startServer();
  const browser = await launchBrowser();
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  try {
    const { page, context } = await newPage(browser);
    await page.goto(server.baseUrl);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.locator('tbody tr').first().waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    for (let run = 0; run < RUNS; run++) {
      await page.goto(server.baseUrl);
      await page.locator('tbody tr').first().waitFor();
      await page.waitForTimeout(500);
      // After a reload any rows will do: they are the same rows, drawn anew.
      const before = kind === 'load' ? '' : await rowsText(page);
      await cdp.send('Profiler.start');
      const started = performance.now();
      if (kind === 'page') await page.getByRole('button', { name: 'Go to next page' }).first().click();
      else if (kind === 'sort') await page.getByRole('button', { name: /^User/ }).click();
      else if (kind === 'load') await page.reload();
      else {
        await page.getByRole('searchbox').focus();
        await page.keyboard.press('z');
      }
      await page.waitForFunction((previous) => {
        let text = '';
        for (const row of document.querySelectorAll('main table tbody tr')) {
          if (row.textContent?.includes('@')) text += `${row.textContent}\n`;
        }
        return text && text !== previous && !document.querySelector('[aria-busy="true"]');
      }, before);
      const elapsed = performance.now() - started;
      await page.waitForTimeout(100);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      console.log(`run ${run + 1}: rows changed after ${Math.round(elapsed)} ms`);
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      const parents = new Map<number, number>();
      for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
      /** The nearest frame of the page's own code or of an MUI component: who asked for the work. */
      const owner = (id: number): string => {
        for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
          const frame = nodes.get(at)?.callFrame;
          if (!frame) break;
          const where = original(frame.url, frame.lineNumber, frame.columnNumber);
          const source = short(where.source);
          if (source.startsWith('src/') || source.startsWith('@mui/material/')) return source;
        }
        return '(no component: React, browser)';
      };
      profile.samples.forEach((id, index) => {
        const node = nodes.get(id);
        const ms = (profile.timeDeltas[index] ?? 0) / 1000;
        if (!node || ['(idle)', '(program)'].includes(node.callFrame.functionName)) return;
        const { url, lineNumber, columnNumber, functionName } = node.callFrame;
        const where = original(url, lineNumber, columnNumber);
        const module = short(where.source);
        byModule.set(module, (byModule.get(module) ?? 0) + ms);
        const fn = `${functionName || where.name || '(anonymous)'} — ${short(where.source)}`;
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
        const by = owner(id);
        byOwner.set(by, (byOwner.get(by) ?? 0) + ms);
        total += ms;
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, ms]) => `${(ms / RUNS).toFixed(1).padStart(7)} ms  ${key}`)
      .join('\n');
  console.log(`\nbusy main thread per run: ${(total / RUNS).toFixed(1)} ms\n\nby module:\n${top(byModule, 25)}`);
  console.log(`\nby nearest component (own code or MUI) on the stack:\n${top(byOwner, 30)}`);
  console.log(`\nby function:\n${top(byFunction, 40)}`);
}

await main();
