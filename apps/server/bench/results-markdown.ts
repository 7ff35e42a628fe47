import os from 'node:os';
import type { EngineResult } from './api-bench.ts';

const ms = (value: number) => value.toFixed(1);

/** `npm run bench`'s results as Markdown: the summary table, then every shape and the slowest searches. */
export function markdown(results: EngineResult[], users: number, runs: number): string {
  const lines = [
    `${users.toLocaleString('en')} users; ${runs} requests per shape; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end.`,
    '',
    `| measure | ${results.map((r) => r.engine).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
  ];
  const row = (label: string, value: (r: EngineResult) => string) =>
    lines.push(`| ${label} | ${results.map(value).join(' | ')} |`);
  row('seed (s)', (r) => (r.seedSeconds === undefined ? '–' : r.seedSeconds.toFixed(0)));
  row('lists without a search, worst p99 (ms)', (r) =>
    ms(Math.max(...r.shapes.filter((s) => !s.far).map((s) => s.p99))),
  );
  row('pages >100,000 from both ends, worst p99 (ms)', (r) =>
    ms(Math.max(...r.shapes.filter((s) => s.far).map((s) => s.p99))),
  );
  row('random searches, first time p50 / p99 (ms)', (r) => `${ms(r.random.p50)} / ${ms(r.random.p99)}`);
  row('exact total of every user (ms)', (r) => ms(r.exactTotal));
  row(
    'insert / status change p50 (ms)',
    (r) => `${ms(r.writes.withTriggers.insert)} / ${ms(r.writes.withTriggers.statusChange)}`,
  );
  row(
    'the same without triggers (ms)',
    (r) => `${ms(r.writes.withoutTriggers.insert)} / ${ms(r.writes.withoutTriggers.statusChange)}`,
  );
  row('first page at 8 connections (req/s)', (r) => r.firstPageRps.toFixed(0));
  row(
    'CSV export of every user (s) / heap growth (MB)',
    (r) => `${r.exported.seconds.toFixed(1)} / ${r.exported.heapGrowthMegabytes.toFixed(0)}`,
  );
  row(
    'single-user change p50 / p99 (ms)',
    (r) => `${ms(r.actions.singleChange.p50)} / ${ms(r.actions.singleChange.p99)}`,
  );
  row(
    'job over the inactive users: users / s / heap growth (MB)',
    (r) =>
      `${r.actions.job.users.toLocaleString('en')} / ${r.actions.job.seconds.toFixed(1)} / ${r.actions.job.heapGrowthMegabytes.toFixed(0)}`,
  );
  for (const result of results) {
    lines.push('', `**${result.engine}**`, '', '| shape | total | p50 ms | p99 ms |', '|---|---:|---:|---:|');
    for (const s of result.shapes)
      lines.push(`| ${s.shape} | ${s.total.toLocaleString('en')} | ${ms(s.p50)} | ${ms(s.p99)} |`);
    lines.push('', '| slowest random search | ms | status | total |', '|---|---:|---:|---:|');
    for (const s of result.slowest)
      lines.push(`| \`${JSON.stringify(s.query)}\` | ${ms(s.ms)} | ${s.status} | ${s.total} |`);
  }
  return lines.join('\n');
}
