// `npm run bench`: the users list API on an organisation of BENCH_USERS (default 1,000,000) users,
// on the embedded database and on PostgreSQL, against the budgets of issue 6. Prints a table,
// writes bench-results/api.{json,md}, and exits 1 when a budget is exceeded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { UserListQuery } from '@users-admin/contract';
import { toUserListParams } from '@users-admin/contract';
import autocannon from 'autocannon';
import { sql } from 'kysely';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types.
import { withBenchPostgres } from '../../../scripts/throwaway-postgres.mjs';
import { buildApp } from '../src/app.ts';
import { sessionLookup } from '../src/auth/sessions.ts';
import { loadConfig } from '../src/config.ts';
import { characterTypeWarning, type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { ensureLargeOrganization } from '../src/db/seed.ts';
import { createUsersRepository, engineOptions } from '../src/repositories/users-repository.ts';
import { signIn } from '../test/support/sign-in.ts';
import { freePort } from '../test/support/test-server.ts';
import { randomQueries } from './random-queries.ts';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** Random requests (random-queries.ts), each made twice: its first time, then once more. */
const RANDOM_REQUESTS = Number(process.env.BENCH_RANDOM ?? 300);
/** Worker threads of the load generator; 0 runs it in the server's event loop. */
const LOAD_WORKERS = Number(process.env.BENCH_LOAD_WORKERS ?? 0);
const root = path.resolve(import.meta.dirname, '../../..');
const resultsDir = path.join(root, 'bench-results');

/** Budgets of issue 6, on a 2-core machine. */
const BUDGET = {
  postgres: { p50: 15, p99: 50, overheadMs: 2, firstPageRps: 1000, mixRps: 300 },
  pglite: { p99: 250 },
};

type Shape = { name: string; query: UserListQuery };
const page = (pageNumber: number, extra: Partial<UserListQuery> = {}): UserListQuery => ({
  pageSize: 25,
  pageNumber,
  ...extra,
});
const lastPage = Math.ceil((USERS + 1) / 25);
const SHAPES: Shape[] = [
  { name: 'first page, unsorted', query: page(1) },
  { name: 'by name, page 1', query: page(1, { sort: 'name' }) },
  { name: 'by name, middle page', query: page(Math.floor(lastPage / 2), { sort: 'name' }) },
  { name: 'by name, last page', query: page(lastPage, { sort: 'name' }) },
  { name: 'by -name, middle page', query: page(Math.floor(lastPage / 2) + 1, { sort: '-name' }) },
  { name: 'unsorted, middle page', query: page(Math.floor(lastPage / 2)) },
  { name: 'status active', query: page(1, { status: 'active' }) },
  { name: 'status inactive', query: page(1, { status: 'inactive' }) },
  { name: 'status pending', query: page(1, { status: 'pending' }) },
  { name: 'status disabled', query: page(1, { status: 'disabled' }) },
  { name: 'System Admins', query: page(1, { isSystemAdmin: true }) },
  { name: 'search 1 char, many ("a")', query: page(1, { search: 'a' }) },
  { name: 'search 1 char, few ("山")', query: page(1, { search: '山' }) },
  { name: 'search 1 char, none ("ø")', query: page(1, { search: 'ø' }) },
  { name: 'search 2 chars, many ("an")', query: page(1, { search: 'an' }) },
  { name: 'search 2 chars, few ("äf")', query: page(1, { search: 'äf' }) },
  { name: 'search 2 chars, none ("qz")', query: page(1, { search: 'qz' }) },
  { name: 'search 3 chars, many ("ann")', query: page(1, { search: 'ann' }) },
  { name: 'search 3 chars, few ("öhl")', query: page(1, { search: 'öhl' }) },
  { name: 'search 3 chars, none ("qzx")', query: page(1, { search: 'qzx' }) },
  { name: 'search 8 chars, many ("williams")', query: page(1, { search: 'williams' }) },
  { name: 'search 8 chars, few (".99999@b")', query: page(1, { search: '.99999@b' }) },
  { name: 'search 8 chars, none ("zzzzzzzz")', query: page(1, { search: 'zzzzzzzz' }) },
  { name: 'search 4 chars, all, in the domain ("exam")', query: page(1, { search: 'exam' }) },
  { name: 'search "@" and a domain ("@bench")', query: page(1, { search: '@bench' }) },
  { name: 'search 5 chars, many, in mailboxes ("user.")', query: page(1, { search: 'user.' }) },
  { name: 'search "user.", middle page', query: page(Math.floor(lastPage / 4), { search: 'user.' }) },
  { name: 'search "user." by name, page 2,000', query: page(2000, { search: 'user.', sort: 'name' }) },
  {
    name: 'search + filters + sort',
    query: page(1, { search: 'ann', status: 'active', isSystemAdmin: false, sort: 'name' }),
  },
  { name: 'search + filters + sort, page 20', query: page(20, { search: 'son', status: 'active', sort: '-name' }) },
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => value.toFixed(1);

/** A keep-alive HTTP GET with node:http: a lighter client than fetch, so less of it is measured. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { cookie } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

interface ShapeResult {
  shape: string;
  total: number;
  coldMs: number;
  p50: number;
  p99: number;
  sqlP50: number;
  overheadMs: number;
}
interface Spread {
  p50: number;
  p99: number;
  max: number;
}
interface RandomResult {
  requests: number;
  first: Spread;
  again: Spread;
  slowestAgain: { query: UserListQuery; ms: number; total: number }[];
  slowestFirst: { query: UserListQuery; ms: number; total: number }[];
}
interface EngineResult {
  engine: string;
  shapes: ShapeResult[];
  random: RandomResult;
  firstPageRps: number;
  mixRps: number;
  loadErrors: number;
  violations: string[];
}

async function ensureBenchOrganization(database: DatabaseHandle): Promise<{ orgId: string; email: string }> {
  const slug = `bench-${USERS}`;
  const started = performance.now();
  let last = 0;
  let seeding = false;
  const { orgId, adminEmail } = await ensureLargeOrganization(database.db, {
    beforeSeeding: () => {
      seeding = true;
      console.log(`Seeding an organisation of ${USERS.toLocaleString('en')} users on ${database.engine}…`);
    },
    adminFirstName: 'Bench',
    adminPassword: 'bench',
    name: `Bench ${USERS}`,
    slug,
    users: USERS,
    seed: 42,
    onStep(step) {
      console.log(`  ${step} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    },
    onProgress(done, total) {
      if (performance.now() - last > 5000 || done === total) {
        last = performance.now();
        console.log(
          `  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
    },
  });
  if (seeding) console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { orgId, email: adminEmail };
}

async function benchEngine(engine: 'pglite' | 'postgres', databaseUrl: string | undefined): Promise<EngineResult> {
  const dataDir = path.join(root, '.bench', 'pglite');
  const database = await openDatabase({ databaseUrl, dataDir });
  const warning = await characterTypeWarning(database.db);
  if (warning) console.log(`  Warning: ${warning}`);
  const { orgId, email } = await ensureBenchOrganization(database);
  const port = await freePort();
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp(config, database);
  await app.listen({ host: '127.0.0.1', port });
  const { jar } = await signIn(config.publicUrl, email, 'bench');
  const cookie = jar.header();
  const repository = createUsersRepository(database.db, engineOptions(engine));
  // The request's SQL run directly: the session lookup of the bench's session (signed in just now,
  // the newest), then the list's statements, one after the other as the server runs them.
  const { id: sessionHash } = await database.db
    .selectFrom('sessions')
    .select('id')
    .orderBy('expires_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const directly = async (query: UserListQuery) => {
    await sessionLookup(database.db, sessionHash, true).executeTakeFirstOrThrow();
    return repository.listUsers(orgId, query);
  };
  const url = (query: UserListQuery) => {
    const params = toUserListParams(query).toString();
    return `/apis/accounts/api/v3/orgs/${orgId}/users${params ? `?${params}` : ''}`;
  };
  const violations: string[] = [];

  // The cold column is the first request of each shape on the organisation as its load left it: drop
  // the counts cached, the searches kept, the search lists built and the searches counted per page
  // bucket by earlier runs' requests, so that a search's first request pays for them. The heavy
  // searches its load found stay kept, and so do the counts per bucket its load took.
  await database.db.deleteFrom('user_search_counts').where('org_id', '=', orgId).execute();
  await database.db
    .deleteFrom('user_kept_searches')
    .where('org_id', '=', orgId)
    .where('search', 'not in', (eb) =>
      eb
        .selectFrom('user_kept_searches')
        .select('search')
        .where('org_id', '=', orgId)
        .where('found_at_load', '=', true),
    )
    .execute();
  await database.db.deleteFrom('user_search_lists').where('org_id', '=', orgId).execute();
  await database.db
    .deleteFrom('user_page_bucket_searches')
    .where('org_id', '=', orgId)
    .where('found_at_load', '=', false)
    .execute();

  // PGlite's first queries after opening run several times slower, and the server's code is not
  // compiled yet (its first requests cost 0.5-1 ms more in both): warm up before measuring, on the
  // lists without a search, so that every search's first request stays cold.
  for (let i = 0; i < 30; i++) {
    for (const { query } of SHAPES.slice(0, 6)) {
      await get(`${config.publicUrl}${url(query)}`, cookie);
      await directly(query);
    }
  }

  const shapes: ShapeResult[] = [];
  for (const { name, query } of SHAPES) {
    let started = performance.now();
    const first = await get(`${config.publicUrl}${url(query)}`, cookie);
    const coldMs = performance.now() - started;
    const document = JSON.parse(first.body) as { meta?: { total_count: number } };
    if (first.status !== 200 || !document.meta) throw new Error(`${name}: ${first.status}`);
    const http: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      started = performance.now();
      await get(`${config.publicUrl}${url(query)}`, cookie);
      http.push(performance.now() - started);
      started = performance.now();
      await directly(query);
      direct.push(performance.now() - started);
    }
    const result = {
      shape: name,
      total: document.meta.total_count,
      coldMs,
      p50: percentile(http, 50),
      p99: percentile(http, 99),
      sqlP50: percentile(direct, 50),
      overheadMs: percentile(http, 50) - percentile(direct, 50),
    };
    shapes.push(result);
    console.log(
      `  ${engine.padEnd(8)} ${name.padEnd(38)} p50 ${ms(result.p50).padStart(6)}  p99 ${ms(result.p99).padStart(6)}  sql ${ms(result.sqlP50).padStart(6)}  overhead ${ms(result.overheadMs).padStart(5)}  cold ${ms(coldMs).padStart(7)}  total ${result.total}`,
    );
    if (engine === 'postgres') {
      if (result.p50 > BUDGET.postgres.p50)
        violations.push(`${name}: p50 ${ms(result.p50)} ms > ${BUDGET.postgres.p50}`);
      if (result.p99 > BUDGET.postgres.p99)
        violations.push(`${name}: p99 ${ms(result.p99)} ms > ${BUDGET.postgres.p99}`);
      if (result.overheadMs > BUDGET.postgres.overheadMs)
        violations.push(`${name}: server overhead ${ms(result.overheadMs)} ms > ${BUDGET.postgres.overheadMs}`);
    } else if (result.p99 > BUDGET.pglite.p99) {
      violations.push(`${name}: p99 ${ms(result.p99)} ms > ${BUDGET.pglite.p99}`);
    }
  }

  // Requests no list of shapes foresees: the budgets hold for every shape, so for these too, after
  // their first time (which is reported: a search never seen pays for counting it).
  const { rows: people } = await sql<{ name: string; email: string }>`
    select name, email from users where org_id = ${orgId} order by md5(id::text) limit 500`.execute(database.db);
  console.log(`  ${engine}: ${RANDOM_REQUESTS} random requests, each twice…`);
  const runs: { query: UserListQuery; first: number; again: number; total: number }[] = [];
  for (const query of randomQueries(
    people.flatMap((person) => [person.name, person.email]),
    RANDOM_REQUESTS,
    42,
  )) {
    let started = performance.now();
    const answer = await get(`${config.publicUrl}${url(query)}`, cookie);
    const first = performance.now() - started;
    started = performance.now();
    await get(`${config.publicUrl}${url(query)}`, cookie);
    const again = performance.now() - started;
    if (answer.status !== 200) violations.push(`random ${JSON.stringify(query)}: ${answer.status}`);
    const { meta } = JSON.parse(answer.body) as { meta?: { total_count: number } };
    runs.push({ query, first, again, total: meta?.total_count ?? -1 });
  }
  const spread = (values: number[]): Spread => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: Math.max(...values),
  });
  const slowest = (key: 'first' | 'again') =>
    [...runs]
      .sort((a, b) => b[key] - a[key])
      .slice(0, 5)
      .map((run) => ({ query: run.query, ms: run[key], total: run.total }));
  const random: RandomResult = {
    requests: runs.length,
    first: spread(runs.map((run) => run.first)),
    again: spread(runs.map((run) => run.again)),
    slowestAgain: slowest('again'),
    slowestFirst: slowest('first'),
  };
  console.log(
    `  ${engine.padEnd(8)} random requests: again p50 ${ms(random.again.p50)}  p99 ${ms(random.again.p99)}  max ${ms(random.again.max)}; first time p50 ${ms(random.first.p50)}  p99 ${ms(random.first.p99)}  max ${ms(random.first.max)}`,
  );
  const randomP99Budget = engine === 'postgres' ? BUDGET.postgres.p99 : BUDGET.pglite.p99;
  if (random.again.p99 > randomP99Budget)
    violations.push(`random requests: p99 ${ms(random.again.p99)} ms > ${randomP99Budget}`);

  const load = async (label: string, paths: string[]) => {
    console.log(`  ${engine}: ${label}, 8 connections for ${LOAD_SECONDS} s…`);
    const result = await autocannon({
      url: config.publicUrl,
      connections: 8,
      // BENCH_LOAD_WORKERS=1 runs the load generator in a worker thread instead of the server's own
      // event loop (it still shares the machine's cores); the default keeps earlier runs comparable.
      ...(LOAD_WORKERS > 0 ? { workers: LOAD_WORKERS } : {}),
      duration: LOAD_SECONDS,
      headers: { cookie },
      requests: paths.map((p) => ({ method: 'GET' as const, path: p })),
    });
    const errors = result.errors + result.non2xx + result.timeouts;
    return { rps: result.requests.average, errors };
  };
  const firstPage = await load('first page', [url(SHAPES[0]?.query ?? page(1))]);
  const mix = await load(
    'mix of all shapes',
    SHAPES.map((s) => url(s.query)),
  );
  if (firstPage.errors + mix.errors > 0) violations.push(`${firstPage.errors + mix.errors} errors under load`);
  if (engine === 'postgres') {
    if (firstPage.rps < BUDGET.postgres.firstPageRps)
      violations.push(`first page: ${firstPage.rps.toFixed(0)} req/s < ${BUDGET.postgres.firstPageRps}`);
    if (mix.rps < BUDGET.postgres.mixRps)
      violations.push(`mix: ${mix.rps.toFixed(0)} req/s < ${BUDGET.postgres.mixRps}`);
  }

  await app.close();
  await database.close();
  return {
    engine,
    shapes,
    random,
    firstPageRps: firstPage.rps,
    mixRps: mix.rps,
    loadErrors: firstPage.errors + mix.errors,
    violations,
  };
}

function markdown(results: EngineResult[]): string {
  const lines = [
    `API on an organisation of ${USERS.toLocaleString('en')} users; ${RUNS} requests per shape after one cold request (search counts cached and searches kept by earlier runs' requests dropped first), each beside the same SQL run directly (the session lookup, then the list's statements); load at 8 connections from ${LOAD_WORKERS > 0 ? `${LOAD_WORKERS} worker thread(s)` : "the server's event loop"}; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end (shared machine).`,
    '',
  ];
  for (const result of results) {
    lines.push(
      `**${result.engine}**: ${result.firstPageRps.toFixed(0)} req/s on the first page and ${result.mixRps.toFixed(0)} req/s on the mix at 8 connections, ${result.loadErrors} errors.`,
      '',
    );
    lines.push(
      '| shape | total | p50 ms | p99 ms | SQL p50 ms | ratio | overhead ms | cold ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of result.shapes) {
      lines.push(
        `| ${s.shape} | ${s.total.toLocaleString('en')} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.sqlP50)} | ${(s.p50 / s.sqlP50).toFixed(2)} | ${ms(s.overheadMs)} | ${ms(s.coldMs)} |`,
      );
    }
    const { random } = result;
    lines.push(
      '',
      `${random.requests} random requests (searches from the organisation's own names and addresses, any filters, order and page), each twice: again p50 ${ms(random.again.p50)}, p99 ${ms(random.again.p99)}, max ${ms(random.again.max)} ms; the first time p50 ${ms(random.first.p50)}, p99 ${ms(random.first.p99)}, max ${ms(random.first.max)} ms.`,
      '',
      '| slowest | ms | total | request |',
      '|---|---:|---:|---|',
      ...random.slowestAgain.map(
        (r) => `| again | ${ms(r.ms)} | ${r.total.toLocaleString('en')} | \`${JSON.stringify(r.query)}\` |`,
      ),
      ...random.slowestFirst.map(
        (r) => `| first time | ${ms(r.ms)} | ${r.total.toLocaleString('en')} | \`${JSON.stringify(r.query)}\` |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

const engines = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');
const results: EngineResult[] = [];
for (const engine of engines) {
  if (engine === 'postgres') {
    const result = await withBenchPostgres((url: string) => benchEngine('postgres', url));
    if (result) results.push(result);
  } else {
    results.push(await benchEngine('pglite', undefined));
  }
}

mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'api.json'), JSON.stringify({ users: USERS, runs: RUNS, results }, null, 2));
writeFileSync(path.join(resultsDir, 'api.md'), markdown(results));
console.log(`\n${markdown(results)}`);
const violations = results.flatMap((r) => r.violations.map((v) => `${r.engine}: ${v}`));
if (violations.length) {
  console.log(`Budgets exceeded:\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.log('Every budget met.');
process.exit(0);
