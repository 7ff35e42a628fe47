import { Agent } from 'node:http';
import { SEARCH_WINDOW } from '@users-admin/contract';
import type { Db } from '../src/db/database.ts';
import { get, percentile, type Run } from './bench-http.ts';
import { type GridList, gridLists, gridTerms, PAGE_SIZE } from './grid-lists.ts';

/** Budgets of the search grid, in ms: pages 1 and 3, the window's last page, and under concurrent requests. */
export const GRID_BUDGET = { near: { p50: 30, p99: 100 }, last: { p50: 100, p99: 250 }, concurrentP99: 250 } as const;

const WINDOW_LAST_PAGE = Math.ceil(SEARCH_WINDOW / PAGE_SIZE);

export interface GridCell extends Omit<GridList, 'query'> {
  page: 'first' | 'third' | 'last';
  pageNumber: number;
  total: number;
  relation: string;
  times: number[];
  errors: number;
  url: string;
}

interface Listed {
  meta: { total_count: number; total_count_relation?: string };
}

/** Page 1, 3 and the last one within the window of a list whose first page said how many match. */
function pagesOf(total: number, relation: string) {
  const last = relation === 'gte' ? WINDOW_LAST_PAGE : Math.max(1, Math.ceil(total / PAGE_SIZE));
  return [
    ['first', 1],
    ['third', 3],
    ['last', Math.min(last, WINDOW_LAST_PAGE)],
  ] as const;
}

/** Prints how far a long pass is, every ten seconds. */
function progress(label: string, total: number) {
  const started = performance.now();
  let reported = started;
  return (done: number) => {
    const now = performance.now();
    if (now - reported < 10_000 && done < total) return;
    reported = now;
    console.log(
      `  ${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} requests (${((now - started) / 1000).toFixed(0)} s)`,
    );
  };
}

/**
 * Every cell `repeat` times, one request at a time, a round over the grid at a time (so that a cell's
 * requests do not follow each other warm). The first round learns each list's total from its page 1.
 */
export async function measureGridCells(run: Run, lists: GridList[], repeat: number): Promise<GridCell[]> {
  const cells: GridCell[] = [];
  const report = progress(`${run.engine} grid, ${repeat} rounds`, lists.length * 3 * repeat);
  const ask = async (cell: GridCell) => {
    const answer = await get(cell.url, run.cookie);
    cell.times.push(answer.ms);
    if (answer.status !== 200) cell.errors++;
    report(cells.length * (cell.times.length - 1) + cells.indexOf(cell) + 1);
    return answer;
  };
  for (const list of lists) {
    const { query, ...labels } = list;
    const first: GridCell = {
      ...labels,
      page: 'first',
      pageNumber: 1,
      total: -1,
      relation: '',
      times: [],
      errors: 0,
      url: run.url(query),
    };
    cells.push(first);
    const answer = await ask(first);
    if (answer.status === 200) {
      const { meta } = JSON.parse(answer.body) as Listed;
      first.total = meta.total_count;
      first.relation = meta.total_count_relation ?? 'eq';
    }
    for (const [page, pageNumber] of pagesOf(first.total, first.relation).slice(1)) {
      const cell = { ...first, page, pageNumber, times: [], errors: 0, url: run.url({ ...query, pageNumber }) };
      cells.push(cell);
      await ask(cell);
    }
  }
  for (let round = 1; round < repeat; round++) for (const cell of cells) await ask(cell);
  return cells;
}

/** Every cell's request `times` times, at `connections` at once, in a shuffled order: p99, errors, rate. */
export async function measureGridConcurrently(run: Run, cells: GridCell[], connections: number, times = 2) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let seed = 42;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  const urls = Array.from({ length: times }, () => cells.map((cell) => cell.url))
    .flat()
    .map((url) => ({ url, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ url }) => url);
  const report = progress(`${run.engine} grid at ${connections} connections`, urls.length);
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      const answer = await get(url, run.cookie, agent).catch(() => ({ status: 0, ms: Number.NaN }));
      if (answer.status !== 200) errors++;
      else latencies.push(answer.ms);
      report(latencies.length + errors);
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    connections,
    requests: urls.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    rps: urls.length / seconds,
  };
}

export type GridConcurrency = Awaited<ReturnType<typeof measureGridConcurrently>>;

/** A group of cells: its worst cell by median, and the p99 of all its requests. */
export function summarizeGroup(cells: GridCell[]) {
  const medians = cells.map((cell) => ({ cell, p50: percentile(cell.times, 50) }));
  const worst = medians.reduce((a, b) => (b.p50 > a.p50 ? b : a));
  return {
    cells: cells.length,
    worstP50: worst.p50,
    worstCell: `"${worst.cell.term}", ${worst.cell.filters}, ${worst.cell.order}, page ${worst.cell.pageNumber}`,
    p99: percentile(
      cells.flatMap((cell) => cell.times),
      99,
    ),
    errors: cells.reduce((sum, cell) => sum + cell.errors, 0),
  };
}

export type GridGroup = ReturnType<typeof summarizeGroup>;

/** Pages 1 and 3, and the window's last, against their budgets (checked on PostgreSQL). */
export function summarizeGrid(run: Run, cells: GridCell[]) {
  const near = summarizeGroup(cells.filter((cell) => cell.page !== 'last'));
  const last = summarizeGroup(cells.filter((cell) => cell.page === 'last'));
  for (const [label, group, budget] of [
    ['pages 1 and 3', near, GRID_BUDGET.near],
    ['last page', last, GRID_BUDGET.last],
  ] as const) {
    console.log(
      `  ${run.engine} grid ${label}: worst median ${group.worstP50.toFixed(1)} ms (${group.worstCell}), p99 ${group.p99.toFixed(1)} ms, ${group.errors} errors`,
    );
    run.check(group.errors === 0, `grid ${label}: ${group.errors} errors`);
    if (run.engine !== 'postgres') continue;
    run.check(
      group.worstP50 <= budget.p50,
      `grid ${label}: median ${group.worstP50.toFixed(1)} ms > ${budget.p50} (${group.worstCell})`,
    );
    run.check(group.p99 <= budget.p99, `grid ${label}: p99 ${group.p99.toFixed(1)} ms > ${budget.p99}`);
  }
  return { near, last };
}

/** The whole grid on one engine: every cell `repeat` times alone, then all of them at `connections` at once. */
export async function benchGrid(run: Run, db: Db, orgId: string, users: number, repeat: number, connections: number) {
  const lists = gridLists(await gridTerms(db, orgId));
  console.log(
    `  ${run.engine} grid at ${users.toLocaleString('en')} users: ${(lists.length * 3).toLocaleString('en')} cells`,
  );
  const cells = await measureGridCells(run, lists, repeat);
  const summary = summarizeGrid(run, cells);
  const concurrent = await measureGridConcurrently(run, cells, connections);
  console.log(
    `  ${run.engine} grid at ${connections} connections: p99 ${concurrent.p99.toFixed(1)} ms, ${concurrent.errors} errors, ${concurrent.rps.toFixed(0)} req/s`,
  );
  run.check(concurrent.errors === 0, `grid at ${connections} connections: ${concurrent.errors} errors`);
  run.check(
    concurrent.p99 <= GRID_BUDGET.concurrentP99,
    `grid at ${connections} connections: p99 ${concurrent.p99.toFixed(1)} ms > ${GRID_BUDGET.concurrentP99}`,
  );
  return {
    engine: run.engine,
    users,
    repeat,
    ...summary,
    concurrent,
    cells: cells.map(({ url: _, times, ...cell }) => ({ ...cell, times: times.map((t) => Math.round(t * 100) / 100) })),
  };
}

export type GridResult = Awaited<ReturnType<typeof benchGrid>>;
