// `npm run bench:page`: the Users page in headless Chromium against the real server, against the
// budgets. Builds the production bundle and a floor page (plain React, no UI library,
// 25 rows from the same API), serves both from the real server with the demo data, measures
// (page-measures.ts) navigation start → first user row on screen (cold and warm cache, for a
// returning administrator; a first visit, cold, beside), a keystroke, a page change and a sort
// change → new rows on screen, the first row over an emulated fast 4G link (fast-4g.ts) and
// Lighthouse's mobile and desktop scores (lighthouse.ts), then writes the table and
// bench-results/page.{json,md} (page-report.ts) and exits 1 when a budget is exceeded.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { launchBrowser } from '../support/browser.ts';
import { type StorageState, signIn } from '../support/seeded-server.ts';
import { startServer } from '../support/server.ts';
import { bundleOf, htmlAssets, htmlStyles } from './bundle-size.ts';
import { firstRowOverFast4g } from './fast-4g.ts';
import { LIGHTHOUSE_RUNS, runLighthouse } from './lighthouse.ts';
import { type LoadTimes, log, measureInteractions, measureLoads, ms, RUNS, resultsDir } from './page-measures.ts';
import { BUDGET, DEBOUNCE_MS, type PageSummary, pageTable, pageViolations } from './page-report.ts';
import { firstRowAt, newContext } from './probe.ts';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'apps/web/dist');
const ADMIN = { email: 'admin@acme.example', password: 'admin' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** The production bundle and a floor page (plain React), copied to where the server will serve them. */
async function buildServedFiles(): Promise<{ work: string; served: string }> {
  log('building the production bundle (npm run build)…');
  const built = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('npm run build failed');

  // The server serves a copy of the bundle with the floor page under /floor/.
  const work = mkdtempSync(path.join(os.tmpdir(), 'users-admin-page-bench-'));
  const served = path.join(work, 'web');
  cpSync(webDist, served, { recursive: true });
  log('building the floor page (plain React) with Vite…');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(import.meta.dirname, 'floor'),
    base: '/floor/',
    build: { outDir: path.join(served, 'floor'), emptyOutDir: true },
  });
  return { work, served };
}

/**
 * A returning administrator, whose browser has opened the page before: besides the cookies it keeps
 * the page's hints of the last session (language, organisation; localStorage).
 */
async function returningVisit(browser: Browser, baseUrl: string, firstVisit: StorageState): Promise<StorageState> {
  const context = await newContext(browser, firstVisit);
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await firstRowAt(page);
  const kept = await context.storageState();
  await context.close();
  return kept;
}

/** A letter whose search changes the first page of the demo organisation: a keystroke must bring new rows. */
async function letterThatChangesRows(baseUrl: string, state: StorageState): Promise<string> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const session = (await (await fetch(`${baseUrl}/apis/oidc/userinfo`, { headers: { cookie } })).json()) as {
    org_id: string;
  };
  const list = async (search: string) =>
    (await (
      await fetch(
        `${baseUrl}/apis/accounts/api/v3/orgs/${session.org_id}/users${search ? `?filter%5Bquery%5D=${search}` : ''}`,
        { headers: { cookie } },
      )
    ).json()) as { data: { id: string }[]; meta: { total_count: number } };
  const unfiltered = (await list('')).data[0]?.id;
  for (const candidate of 'zqxjkvyw') {
    const found = await list(candidate);
    if (found.meta.total_count > 0 && found.data[0]?.id !== unfiltered) return candidate;
  }
  throw new Error('no letter changes the first page of the demo organisation');
}

/** What the first render loads, what came before the first row (the page's own and /mfe/), and the floor page. */
function bundles(served: string, users: LoadTimes): PageSummary['bundle'] {
  const inlineCss = htmlStyles(served, 'index.html');
  const isMicroFrontend = (p: string) => p.startsWith('/mfe/');
  return {
    firstRender: bundleOf(served, htmlAssets(served, 'index.html'), inlineCss),
    beforeFirstRow: bundleOf(
      served,
      users.assetsBeforeFirstRow.filter((p) => !isMicroFrontend(p)),
      inlineCss,
    ),
    beforeInteractive: bundleOf(
      served,
      users.assetsBeforeInteractive.filter((p) => !isMicroFrontend(p)),
      inlineCss,
    ),
    microFrontends: bundleOf(
      path.join(root, 'apps/server/src/micro-frontends'),
      users.assetsBeforeFirstRow.filter(isMicroFrontend).map((p) => p.slice('/mfe'.length)),
    ),
    floor: bundleOf(served, htmlAssets(served, 'floor/index.html'), htmlStyles(served, 'floor/index.html')),
  };
}

/** Writes bench-results/page.{json,md}, prints the table and fails the process on a missed budget. */
function report(summary: PageSummary) {
  const violations = pageViolations(summary);
  const md = pageTable(summary);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(resultsDir, 'page.json'),
    JSON.stringify({ budget: BUDGET, violations, ...summary }, null, 2),
  );
  writeFileSync(path.join(resultsDir, 'page.md'), md);
  console.log(`\n${md}`);
  if (violations.length) {
    console.log(`Budgets exceeded:\n  ${violations.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('Every budget met.');
  }
}

async function main() {
  const { work, served } = await buildServedFiles();
  const server = await startServer({ WEB_DIST: served, ACCESS_TOKEN_TTL: '3600', LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    log(`server at ${server.baseUrl}; signing in as ${ADMIN.email}…`);
    // Signed in, as a browser that has not opened the page yet: only the cookies. The measures and
    // budgets are of a returning administrator, cold or warm HTTP cache; the first visit is reported beside.
    const firstVisit = { ...(await signIn(browser, server.baseUrl, ADMIN)), origins: [] };
    const state = await returningVisit(browser, server.baseUrl, firstVisit);
    const letter = await letterThatChangesRows(server.baseUrl, state);

    log(`the Users page, its first visit and the floor page, ${RUNS} runs each, in turns…`);
    const [users, usersFirstVisit, floor] = (await measureLoads(browser, [
      { label: 'Users page', url: `${server.baseUrl}/`, state },
      { label: 'Users page, first visit (no hints)', url: `${server.baseUrl}/`, state: firstVisit, coldOnly: true },
      { label: 'floor page', url: `${server.baseUrl}/floor/index.html`, state },
    ])) as [LoadTimes, LoadTimes, LoadTimes];
    log(`interactions (keystroke "${letter}")…`);
    const interactions = await measureInteractions(browser, `${server.baseUrl}/`, state, letter);
    log(`first row over an emulated fast 4G link, ${RUNS} cold loads…`);
    const fast4g = await firstRowOverFast4g(browser, `${server.baseUrl}/`, state, RUNS);
    log(`fast 4G: ${fast4g.map(ms).join(', ')} ms`);
    log(`Lighthouse, mobile and desktop, ${LIGHTHOUSE_RUNS} runs each…`);
    const lighthouse = await runLighthouse(server.baseUrl, ADMIN, log);

    const loads = os.loadavg().map((l) => l.toFixed(1));
    report({
      date: new Date().toISOString(),
      runs: RUNS,
      machine: `${os.cpus().length} cores, load average ${loads.join(' ')} at the end (shared with other work)`,
      coldMs: median(users.cold),
      warmMs: median(users.warm),
      floorColdMs: median(floor.cold),
      floorWarmMs: median(floor.warm),
      coldRatio: median(users.cold) / median(floor.cold),
      firstVisitColdMs: median(usersFirstVisit.cold),
      firstVisitColdRatio: median(usersFirstVisit.cold) / median(floor.cold),
      warmRatio: median(users.warm) / median(floor.warm),
      searchColdMs: median(users.coldSearch),
      searchWarmMs: median(users.warmSearch),
      interactiveColdMs: median(users.coldInteractive),
      interactiveWarmMs: median(users.warmInteractive),
      firstRowToInteractiveColdMs: median(users.coldInteractive.map((at, run) => at - (users.cold[run] ?? at))),
      scriptBeforeInteractiveColdMs: median(users.coldScriptMs),
      fast4gColdMs: median(fast4g),
      lighthouse,
      keystrokeMs: median(interactions.keystroke),
      keystrokeAfterDebounceMs: median(interactions.keystroke) - DEBOUNCE_MS,
      pageChangeMs: median(interactions.pageChange),
      sortChangeMs: median(interactions.sortChange),
      bundle: bundles(served, users),
      samples: { users, usersFirstVisit, floor, interactions, fast4g },
    });
  } finally {
    await browser.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
// Ensure no stray handle keeps the process.
process.exit(process.exitCode ?? 0);
