// The page benchmark's budgets and report: what misses a budget, and the table of the results.
import path from 'node:path';
import type { Bundle } from './bundle-size.ts';
import { FAST_4G_BUDGET_MS } from './fast-4g.ts';
import { type LighthouseResult, lighthouseRows, lighthouseViolations } from './lighthouse.ts';

/** The search box's debounce (SPEC.md), part of a keystroke's time. */
export const DEBOUNCE_MS = 300;

/** Budgets, on a 2-core machine. */
export const BUDGET = {
  warmMs: 600,
  coldMs: 900,
  floorRatio: 1.8,
  pageChangeMs: 150,
  sortChangeMs: 150,
  keystrokeMs: 400,
  firstRenderGzipKb: 180,
  /** Nothing shown is dead: from the first row on screen to every control working. */
  firstRowToInteractiveMs: 100,
};

/** One run of the benchmark: medians (ms), ratios to the floor page, bundle sizes and the samples. */
export interface PageSummary {
  date: string;
  runs: number;
  machine: string;
  coldMs: number;
  warmMs: number;
  floorColdMs: number;
  floorWarmMs: number;
  coldRatio: number;
  firstVisitColdMs: number;
  firstVisitColdRatio: number;
  warmRatio: number;
  searchColdMs: number;
  searchWarmMs: number;
  interactiveColdMs: number;
  interactiveWarmMs: number;
  /** Median over cold loads of each load's first row → every control working. */
  firstRowToInteractiveColdMs: number;
  /** Script Chromium ran by the time every control worked, cold. */
  scriptBeforeInteractiveColdMs: number;
  fast4gColdMs: number;
  lighthouse: LighthouseResult[];
  keystrokeMs: number;
  keystrokeAfterDebounceMs: number;
  pageChangeMs: number;
  sortChangeMs: number;
  bundle: {
    firstRender: Bundle;
    beforeFirstRow: Bundle;
    beforeInteractive: Bundle;
    microFrontends: Bundle;
    floor: Bundle;
  };
  samples: unknown;
}

const ms = (value: number) => value.toFixed(0);
const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const firstRenderKb = ({ bundle: { firstRender } }: PageSummary) => (firstRender.js.gzip + firstRender.css.gzip) / 1000;

/** Each budget the run missed, in words. */
export function pageViolations(summary: PageSummary): string[] {
  const violations: string[] = [];
  const over = (label: string, value: number, budget: number, unit = 'ms') => {
    if (value > budget) violations.push(`${label}: ${value.toFixed(unit === '×' ? 2 : 0)} ${unit} > ${budget}`);
  };
  over('first row, warm cache', summary.warmMs, BUDGET.warmMs);
  over('first row, cold cache', summary.coldMs, BUDGET.coldMs);
  over('cold / floor', summary.coldRatio, BUDGET.floorRatio, '×');
  over('warm / floor', summary.warmRatio, BUDGET.floorRatio, '×');
  over('page change', summary.pageChangeMs, BUDGET.pageChangeMs);
  over('sort change', summary.sortChangeMs, BUDGET.sortChangeMs);
  over('keystroke incl. debounce', summary.keystrokeMs, BUDGET.keystrokeMs);
  over('first row over fast 4G, cold cache', summary.fast4gColdMs, FAST_4G_BUDGET_MS);
  over('first row → every control works, cold', summary.firstRowToInteractiveColdMs, BUDGET.firstRowToInteractiveMs);
  violations.push(...lighthouseViolations(summary.lighthouse));
  // The budget holds what index.html loads, which the first render needs; lazy parts started at
  // once (the footer's pagination, in its own Suspense) may arrive before the first row without
  // holding it up, so they are reported, not counted.
  over('JS + CSS of the first render (index.html), gzip', firstRenderKb(summary), BUDGET.firstRenderGzipKb, 'KB');
  return violations;
}

/**
 * The run's results as a Markdown table, each row against its budget. One list of rows, long as it
 * is: the table reads top to bottom as the README's.
 */
export function pageTable(summary: PageSummary): string {
  const { firstRender, beforeFirstRow, beforeInteractive, microFrontends, floor: floorBundle } = summary.bundle;
  const row = (label: string, value: string, budget: string, ok: boolean) =>
    `| ${label} | ${value} | ${budget} | ${ok ? 'met' : '**exceeded**'} |`;
  return [
    `Users page in headless Chromium against the real server (demo data), median of ${summary.runs} runs; ${summary.machine}.`,
    '',
    '| measure | median | budget | |',
    '|---|---:|---:|---|',
    row(
      'navigation → first user row, cold cache',
      `${ms(summary.coldMs)} ms`,
      `${BUDGET.coldMs} ms`,
      summary.coldMs <= BUDGET.coldMs,
    ),
    row(
      'navigation → first user row, warm cache',
      `${ms(summary.warmMs)} ms`,
      `${BUDGET.warmMs} ms`,
      summary.warmMs <= BUDGET.warmMs,
    ),
    row(
      'first visit (no hints of a last session), cold cache; ÷ floor',
      `${ms(summary.firstVisitColdMs)} ms; ${summary.firstVisitColdRatio.toFixed(2)}×`,
      '(reported)',
      true,
    ),
    row(
      'navigation → the search box works, cold / warm',
      `${ms(summary.searchColdMs)} / ${ms(summary.searchWarmMs)} ms`,
      '(reported)',
      true,
    ),
    row(
      "navigation → all the page's controls work (none inert, the footer there), cold / warm",
      `${ms(summary.interactiveColdMs)} / ${ms(summary.interactiveWarmMs)} ms`,
      '(reported)',
      true,
    ),
    row(
      'first row → every control works, cold (median of each load’s gap)',
      `${ms(summary.firstRowToInteractiveColdMs)} ms`,
      `${BUDGET.firstRowToInteractiveMs} ms`,
      summary.firstRowToInteractiveColdMs <= BUDGET.firstRowToInteractiveMs,
    ),
    row(
      'script run before every control works, cold: Chromium’s script time; JS fetched, gzip',
      `${ms(summary.scriptBeforeInteractiveColdMs)} ms; ${kb(beforeInteractive.js.gzip)} KB in ${beforeInteractive.files.length} files`,
      '(reported)',
      true,
    ),
    row(
      'navigation → first user row over fast 4G (9 / 1.5 Mbit/s, 60 ms), cold cache',
      `${ms(summary.fast4gColdMs)} ms`,
      `${FAST_4G_BUDGET_MS} ms`,
      summary.fast4gColdMs <= FAST_4G_BUDGET_MS,
    ),
    ...lighthouseRows(summary.lighthouse, row),
    row(
      'floor page (plain React), cold / warm',
      `${ms(summary.floorColdMs)} / ${ms(summary.floorWarmMs)} ms`,
      '',
      true,
    ),
    row(
      'Users page ÷ floor, cold / warm',
      `${summary.coldRatio.toFixed(2)} / ${summary.warmRatio.toFixed(2)}×`,
      `${BUDGET.floorRatio}×`,
      summary.coldRatio <= BUDGET.floorRatio && summary.warmRatio <= BUDGET.floorRatio,
    ),
    row(
      `keystroke → filtered rows (incl. ${DEBOUNCE_MS} ms debounce)`,
      `${ms(summary.keystrokeMs)} ms (${ms(summary.keystrokeAfterDebounceMs)} after it)`,
      `${BUDGET.keystrokeMs} ms`,
      summary.keystrokeMs <= BUDGET.keystrokeMs,
    ),
    row(
      'page change → new rows',
      `${ms(summary.pageChangeMs)} ms`,
      `${BUDGET.pageChangeMs} ms`,
      summary.pageChangeMs <= BUDGET.pageChangeMs,
    ),
    row(
      'sort change → new rows',
      `${ms(summary.sortChangeMs)} ms`,
      `${BUDGET.sortChangeMs} ms`,
      summary.sortChangeMs <= BUDGET.sortChangeMs,
    ),
    row(
      'JS + CSS of index.html, its style elements included, gzip (raw)',
      `${kb(firstRender.js.gzip + firstRender.css.gzip)} KB (${kb(firstRender.js.raw + firstRender.css.raw)} KB)`,
      `${BUDGET.firstRenderGzipKb} KB`,
      firstRenderKb(summary) <= BUDGET.firstRenderGzipKb,
    ),
    row(
      'JS + CSS fetched before the first row incl. lazy parts started at once, gzip (raw)',
      `${kb(beforeFirstRow.js.gzip + beforeFirstRow.css.gzip)} KB (${kb(beforeFirstRow.js.raw + beforeFirstRow.css.raw)} KB) in ${beforeFirstRow.files.length} files`,
      '(not awaited)',
      true,
    ),
    row(
      'floor page JS + CSS, gzip (raw)',
      `${kb(floorBundle.js.gzip + floorBundle.css.gzip)} KB (${kb(floorBundle.js.raw + floorBundle.css.raw)} KB)`,
      '',
      true,
    ),
    row(
      'micro-frontend scripts (/mfe/) before the first row, gzip (raw)',
      `${kb(microFrontends.js.gzip)} KB (${kb(microFrontends.js.raw)} KB) in ${microFrontends.files.length} files`,
      '',
      true,
    ),
    '',
    'Files fetched before the first user row (gzip KB): ' +
      beforeFirstRow.files.map((f) => `${path.basename(f.file)} ${kb(f.gzip)}`).join(', '),
    '',
  ].join('\n');
}
