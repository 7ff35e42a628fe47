import os from 'node:os';
import { SEARCH_WINDOW } from '@users-admin/contract';
import { ms, percentile } from './bench-http.ts';
import { GRID_BUDGET, type GridResult } from './search-grid.ts';

const count = (n: number) => n.toLocaleString('en');

/** The grid's summary: one row per engine and measure, as the README's performance table shows it. */
export function gridSummary(results: GridResult[]): string[] {
  const lines = ['| search grid | budget | engine, users | result |', '|---|---|---|---:|'];
  for (const r of results) {
    const at = `${r.engine}, ${count(r.users)}`;
    // One request at a time is budgeted on PostgreSQL only.
    const alone = (text: string) => (r.engine === 'postgres' ? text : `(${text} PostgreSQL)`);
    lines.push(
      `| pages 1 and 3: worst cell's median / p99 | ${alone(`≤ ${GRID_BUDGET.near.p50} / ${GRID_BUDGET.near.p99} ms`)} | ${at} | ${ms(r.near.worstP50)} / ${ms(r.near.p99)} ms |`,
      `| last page of the window: worst cell's median / p99 | ${alone(`≤ ${GRID_BUDGET.last.p50} / ${GRID_BUDGET.last.p99} ms`)} | ${at} | ${ms(r.last.worstP50)} / ${ms(r.last.p99)} ms |`,
      `| every cell at ${r.concurrent.connections} connections: p99, errors | ≤ ${GRID_BUDGET.concurrentP99} ms, 0 | ${at} | ${ms(r.concurrent.p99)} ms, ${r.concurrent.errors} (${r.concurrent.rps.toFixed(0)} req/s) |`,
    );
  }
  return lines;
}

/** The grid as Markdown: its summary, the worst cells, then every cell of each engine. */
export function gridMarkdown(results: GridResult[]): string {
  const lines = [
    `Search grid: every search kind × every subset of its filters × 3 orders × pages 1, 3 and the last within the window (${count(SEARCH_WINDOW)}), 25 a page.`,
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end; ${new Date().toISOString().slice(0, 16)}Z.`,
    '',
    ...gridSummary(results),
  ];
  for (const r of results) {
    lines.push('', `**${r.engine}, ${count(r.users)} users, ${r.repeat} requests a cell, one at a time**`, '');
    lines.push(
      `worst cells by median: ${r.near.worstCell} (${ms(r.near.worstP50)} ms); ${r.last.worstCell} (${ms(r.last.worstP50)} ms)`,
      '',
    );
    lines.push(
      '| kind | search | filters | order | page | total | median ms | max ms |',
      '|---|---|---|---|---:|---:|---:|---:|',
    );
    for (const c of r.cells) {
      const total = `${c.relation === 'gte' ? '> ' : ''}${count(c.total)}`;
      lines.push(
        `| ${c.kind} | \`${c.term}\` | ${c.filters} | ${c.order} | ${c.pageNumber} | ${total} | ${ms(percentile(c.times, 50))} | ${ms(Math.max(...c.times))} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
