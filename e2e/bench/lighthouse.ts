// Lighthouse on the signed-in Users page: mobile and desktop defaults, the median of a few runs each,
// against its budgets. Lighthouse drives a Chromium of our own, signed in first in that
// Chromium's profile; the browser may resolve no host but the loopback, so nothing leaves the machine
// (and Lighthouse's Node API, unlike its CLI, never starts its error reporting).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, signInAs } from '../support/browser.ts';
import type { Account } from '../support/seeded-server.ts';

export const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));

/** Scores (0–100) and times (ms) of one form factor, each the median of the runs. */
export interface LighthouseResult {
  formFactor: 'mobile' | 'desktop';
  performance: number;
  accessibility: number;
  bestPractices: number;
  totalBlockingTimeMs: number;
  mainThreadWorkMs: number;
  scriptEvaluationMs: number;
  largestContentfulPaintMs: number;
  /** When the page is fully interactive (Lighthouse's TTI: no long task for 5 s after it). */
  timeToInteractiveMs: number;
  /** The longest task after the first paint: the most a first click can wait. */
  maxPotentialFidMs: number;
  runs: { performance: number; totalBlockingTimeMs: number; timeToInteractiveMs: number }[];
}

export const LIGHTHOUSE_BUDGET = {
  mobile: { performance: 95, accessibility: 100, bestPractices: 100, totalBlockingTimeMs: 150 },
  desktop: { performance: 100, accessibility: 100, bestPractices: 100 },
};

/** Lighthouse could not complete a run (its `runtimeError`), as opposed to a page that fails a check. */
class LighthouseRunError extends Error {}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Debian's Chromium with a DevTools port of its own choosing and a throwaway profile. */
async function launchChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'users-admin-lighthouse-'));
  const child: ChildProcess = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_FLAGS,
      '--disable-default-apps',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not open DevTools in 30 s:\n${output}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${output}`)));
  });
  return {
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      // Chromium's helpers may still be writing into the profile for a moment after it exited.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** Signs in on the identity provider's page in the browser's own profile, then lets go of it. */
async function signInProfile(port: number, baseUrl: string, account: Account) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = browser.contexts()[0];
  if (!context) throw new Error('Chromium has no default context');
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await signInAs(page, account.email, account.password);
  await page.locator('main table tbody tr', { hasText: '@' }).first().waitFor();
  await page.close();
  // Disconnects only: the browser and its cookies stay for Lighthouse.
  await browser.close();
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** Any request of the run to a host other than the loopback: there must be none. */
function foreignRequests(lhr: Lhr): string[] {
  const items = (lhr.audits['network-requests']?.details as { items?: { url: string }[] } | undefined)?.items ?? [];
  return items
    .map((item) => item.url)
    .filter((url) => {
      const { protocol, hostname } = new URL(url);
      return (protocol === 'http:' || protocol === 'https:') && hostname !== '127.0.0.1';
    });
}

async function auditOnce(url: string, port: number, formFactor: 'mobile' | 'desktop'): Promise<Lhr> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error('Lighthouse returned no result');
  const { lhr } = result;
  if (lhr.runtimeError)
    throw new LighthouseRunError(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (!lhr.finalDisplayedUrl.startsWith(url))
    throw new Error(`Lighthouse ended at ${lhr.finalDisplayedUrl}, not ${url}`);
  const foreign = foreignRequests(lhr);
  if (foreign.length) throw new Error(`the page asked hosts other than the loopback: ${foreign.join(', ')}`);
  return lhr;
}

function summarise(formFactor: 'mobile' | 'desktop', lhrs: Lhr[]): LighthouseResult {
  const score = (lhr: Lhr, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const value = (lhr: Lhr, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
  const scriptEvaluation = (lhr: Lhr) => {
    const items = (
      lhr.audits['mainthread-work-breakdown']?.details as { items?: { group: string; duration: number }[] }
    )?.items;
    return items?.find((item) => item.group === 'scriptEvaluation')?.duration ?? Number.NaN;
  };
  const each = (pick: (lhr: Lhr) => number) => median(lhrs.map(pick));
  return {
    formFactor,
    performance: each((lhr) => score(lhr, 'performance')),
    accessibility: each((lhr) => score(lhr, 'accessibility')),
    bestPractices: each((lhr) => score(lhr, 'best-practices')),
    totalBlockingTimeMs: each((lhr) => value(lhr, 'total-blocking-time')),
    mainThreadWorkMs: each((lhr) => value(lhr, 'mainthread-work-breakdown')),
    scriptEvaluationMs: each(scriptEvaluation),
    largestContentfulPaintMs: each((lhr) => value(lhr, 'largest-contentful-paint')),
    timeToInteractiveMs: each((lhr) => value(lhr, 'interactive')),
    maxPotentialFidMs: each((lhr) => value(lhr, 'max-potential-fid')),
    runs: lhrs.map((lhr) => ({
      performance: score(lhr, 'performance'),
      totalBlockingTimeMs: value(lhr, 'total-blocking-time'),
      timeToInteractiveMs: value(lhr, 'interactive'),
    })),
  };
}

/**
 * A run Lighthouse itself could not complete (e.g. NO_NAVSTART: no trace of the navigation, seen on
 * a loaded machine) is made again, twice at most; a page that fails its checks is not.
 */
async function withRetries(audit: () => Promise<Lhr>, log: (message: string) => void): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit();
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt === 3) throw error;
      log(`${error.message}; again`);
    }
  }
}

/** Lighthouse, mobile then desktop defaults, `LIGHTHOUSE_RUNS` runs each, on the signed-in page at `url`. */
export async function runLighthouse(
  baseUrl: string,
  account: Account,
  log: (message: string) => void,
  /** Each run's full report, e.g. to keep the slowest tasks of a profile. */
  onReport?: (formFactor: string, run: number, lhr: Lhr) => void,
  formFactors: readonly ('mobile' | 'desktop')[] = ['mobile', 'desktop'],
): Promise<LighthouseResult[]> {
  const browser = await launchChromium();
  try {
    await signInProfile(browser.port, baseUrl, account);
    const results: LighthouseResult[] = [];
    for (const formFactor of formFactors) {
      const lhrs: Lhr[] = [];
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
        const lhr = await withRetries(() => auditOnce(`${baseUrl}/`, browser.port, formFactor), log);
        onReport?.(formFactor, run, lhr);
        lhrs.push(lhr);
      }
      const result = summarise(formFactor, lhrs);
      log(
        `Lighthouse ${formFactor}: performance ${result.runs.map((r) => r.performance).join(', ')}; ` +
          `TBT ${result.runs.map((r) => r.totalBlockingTimeMs.toFixed(0)).join(', ')} ms; ` +
          `TTI ${result.runs.map((r) => r.timeToInteractiveMs.toFixed(0)).join(', ')} ms`,
      );
      results.push(result);
    }
    return results;
  } finally {
    await browser.stop();
  }
}

/** What misses its budget, in words. */
export function lighthouseViolations(results: LighthouseResult[]): string[] {
  const violations: string[] = [];
  for (const result of results) {
    const budget = LIGHTHOUSE_BUDGET[result.formFactor];
    const below = (label: string, value: number, minimum: number) => {
      if (value < minimum) violations.push(`Lighthouse ${result.formFactor} ${label}: ${value} < ${minimum}`);
    };
    below('performance', result.performance, budget.performance);
    below('accessibility', result.accessibility, budget.accessibility);
    below('best practices', result.bestPractices, budget.bestPractices);
    if ('totalBlockingTimeMs' in budget && result.totalBlockingTimeMs > budget.totalBlockingTimeMs) {
      violations.push(
        `Lighthouse ${result.formFactor} total blocking time: ${result.totalBlockingTimeMs.toFixed(0)} ms > ${budget.totalBlockingTimeMs}`,
      );
    }
  }
  return violations;
}

/** The benchmark table's rows of the results, made by `row(label, value, budget, met)`. */
export function lighthouseRows(
  results: LighthouseResult[],
  row: (label: string, value: string, budget: string, ok: boolean) => string,
): string[] {
  return results.flatMap((result) => {
    const budget = LIGHTHOUSE_BUDGET[result.formFactor];
    const scores = `${result.performance} / ${result.accessibility} / ${result.bestPractices}`;
    const ok =
      result.performance >= budget.performance &&
      result.accessibility >= budget.accessibility &&
      result.bestPractices >= budget.bestPractices;
    const tbtBudget = 'totalBlockingTimeMs' in budget ? budget.totalBlockingTimeMs : undefined;
    return [
      row(
        `Lighthouse ${result.formFactor}: performance / accessibility / best practices`,
        scores,
        `${budget.performance} / ${budget.accessibility} / ${budget.bestPractices}`,
        ok,
      ),
      row(
        `Lighthouse ${result.formFactor}: total blocking time; main-thread work (script evaluation)`,
        `${result.totalBlockingTimeMs.toFixed(0)} ms; ${(result.mainThreadWorkMs / 1000).toFixed(2)} s (${(result.scriptEvaluationMs / 1000).toFixed(2)} s)`,
        tbtBudget === undefined ? '(reported)' : `${tbtBudget} ms`,
        tbtBudget === undefined || result.totalBlockingTimeMs <= tbtBudget,
      ),
      row(
        `Lighthouse ${result.formFactor}: time to interactive; longest wait of a first click`,
        `${(result.timeToInteractiveMs / 1000).toFixed(2)} s; ${result.maxPotentialFidMs.toFixed(0)} ms`,
        '(reported)',
        true,
      ),
    ];
  });
}
