// `npm run bench`: the users list API at BENCH_USERS (default 1,000,000) users on PostgreSQL and on
// the embedded database, and the search grid (search-grid.ts), against the budgets below. Prints what it
// measures, writes bench-results/api.{json,md} and grid.{json,md}, and exits 1 when a budget is missed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toUserListParams, type UserListQuery } from '@users-admin/contract';
import autocannon from 'autocannon';
import { sql } from 'kysely';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types.
import { withBenchPostgres } from '../../../scripts/throwaway-postgres.mjs';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type DatabaseHandle, type Db, openDatabase } from '../src/db/database.ts';
import { ensureLargeOrganization } from '../src/db/seed-large.ts';
import { signIn } from '../test/support/sign-in.ts';
import { freePort } from '../test/support/test-server.ts';
import { benchActions } from './actions-bench.ts';
import { get, ms, percentile, type Run, spread } from './bench-http.ts';
import { measureExport } from './export-bench.ts';
import { gridMarkdown, gridSummary } from './grid-markdown.ts';
import { randomQueries } from './random-queries.ts';
import { markdown } from './results-markdown.ts';
import { benchGrid } from './search-grid.ts';
import { listShapes } from './shapes.ts';
import { measureWrites } from './writes-bench.ts';

const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const RANDOM_REQUESTS = Number(process.env.BENCH_RANDOM ?? 300);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
/** The search grid: requests a cell, one at a time; PGlite's organisation; which parts run (`api`, `grid`). */
const GRID_REPEAT = Number(process.env.BENCH_GRID_REPEAT ?? 5);
const GRID_PGLITE_USERS = Number(process.env.BENCH_GRID_PGLITE_USERS ?? 200_000);
const PARTS = (process.env.BENCH_PARTS ?? 'api,grid').split(',');
const root = path.resolve(import.meta.dirname, '../../..');

/** Budgets on a 2-core machine, in ms unless named otherwise. */
const BUDGET = {
  postgres: {
    shapeP99: 50,
    farShapeP99: 100,
    searchP50: 10,
    searchP99: 150,
    exactTotal: 1000,
    writeP50: 1,
    seedSeconds: 60,
    firstPageRps: 1000,
    exportSeconds: 30,
  },
  pglite: { searchP99: 400, seedSeconds: 120 },
} as const;

/** The benchmark's organisation, seeded now (timed against its budget) or as an earlier run left it. */
async function benchOrganization(database: DatabaseHandle, check: Run['check'], users: number) {
  const { engine } = database;
  let seedSeconds: number | undefined;
  const seedStarted = performance.now();
  let lastReport = 0;
  const organization = await ensureLargeOrganization(database, {
    beforeSeeding: () => console.log(`Seeding ${users.toLocaleString('en')} users on ${engine}…`),
    adminFirstName: 'Bench',
    adminPassword: 'bench',
    name: `Bench ${users}`,
    slug: `bench-${users}`,
    users,
    seed: 42,
    onStep: (step) => console.log(`  ${step}`),
    onProgress(done, total) {
      seedSeconds = (performance.now() - seedStarted) / 1000;
      if (performance.now() - lastReport > 5000 || done === total) {
        lastReport = performance.now();
        console.log(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${seedSeconds.toFixed(0)} s)`);
      }
    },
  });
  if (seedSeconds !== undefined) {
    seedSeconds = (performance.now() - seedStarted) / 1000;
    console.log(`  seeded in ${seedSeconds.toFixed(1)} s`);
    const budget = BUDGET[engine].seedSeconds * (users / 1_000_000);
    check(seedSeconds <= budget, `seed ${seedSeconds.toFixed(0)} s > ${budget} s`);
  }
  return { ...organization, seedSeconds };
}

/** Every list shape without a search, RUNS times each, after a warm-up that asks no search. */
async function measureShapes({ engine, cookie, url, check }: Run) {
  const shapes = listShapes(USERS + 1);
  for (let i = 0; i < 10; i++) for (const shape of shapes.slice(0, 10)) await get(url(shape.query), cookie);
  const results = [];
  for (const shape of shapes) {
    const times: number[] = [];
    let total = -1;
    for (let i = 0; i < RUNS; i++) {
      const answer = await get(url(shape.query), cookie);
      if (answer.status !== 200) throw new Error(`${shape.name}: ${answer.status} ${answer.body}`);
      total = (JSON.parse(answer.body) as { meta: { total_count: number } }).meta.total_count;
      times.push(answer.ms);
    }
    const result = { shape: shape.name, total, far: shape.far, ...spread(times) };
    results.push(result);
    console.log(
      `  ${engine} ${shape.name.padEnd(44)} p50 ${ms(result.p50).padStart(6)}  p99 ${ms(result.p99).padStart(6)}`,
    );
    if (engine === 'postgres') {
      const limit = shape.far ? BUDGET.postgres.farShapeP99 : BUDGET.postgres.shapeP99;
      check(result.p99 <= limit, `${shape.name}: p99 ${ms(result.p99)} ms > ${limit}`);
    }
  }
  return results;
}

/** RANDOM_REQUESTS random searches of the organisation's names and e-mails, each asked once (first time). */
async function measureRandomSearches({ engine, cookie, url, check }: Run, db: Db, orgId: string) {
  const { rows: people } = await sql<{ name: string; email: string }>`
    select name, email from users where org_id = ${orgId} order by md5(email) limit 500`.execute(db);
  const texts = people.flatMap((person) => [person.name, person.email]);
  const randoms: { query: UserListQuery; ms: number; status: number; total: number }[] = [];
  for (const query of randomQueries(texts, RANDOM_REQUESTS, 42)) {
    const answer = await get(url(query), cookie);
    const beyondWindow = answer.status === 400 && answer.body.includes('page_beyond_search_window');
    check(answer.status === 200 || beyondWindow, `${JSON.stringify(query)}: ${answer.status}`);
    const total =
      answer.status === 200 ? (JSON.parse(answer.body) as { meta: { total_count: number } }).meta.total_count : -1;
    randoms.push({ query, ms: answer.ms, status: answer.status, total });
  }
  const random = spread(randoms.map((r) => r.ms));
  console.log(
    `  ${engine} ${randoms.length} random searches, first time: p50 ${ms(random.p50)}  p99 ${ms(random.p99)}  max ${ms(random.max)}`,
  );
  if (engine === 'postgres') {
    check(random.p50 <= BUDGET.postgres.searchP50, `random searches p50 ${ms(random.p50)} ms > 10`);
  }
  const p99Budget = BUDGET[engine].searchP99;
  check(random.p99 <= p99Budget, `random searches p99 ${ms(random.p99)} ms > ${p99Budget}`);
  return { random, slowest: [...randoms].sort((a, b) => b.ms - a.ms).slice(0, 5) };
}

/** `page[total]=exact` of the densest search (its text is in every user's e-mail domain), median of 3. */
async function measureExactTotal({ engine, cookie, url, check }: Run) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    times.push((await get(url({ pageSize: 25, pageNumber: 1, search: 'bench', exactTotal: true }), cookie)).ms);
  }
  const exactTotal = percentile(times, 50);
  console.log(`  ${engine} exact total of "bench" (every user): median ${ms(exactTotal)} ms`);
  if (engine === 'postgres') check(exactTotal <= BUDGET.postgres.exactTotal, `exact total ${ms(exactTotal)} ms > 1000`);
  return exactTotal;
}

/** Single-row writes with and without the count triggers. */
async function benchWrites({ engine, check }: Run, db: Db, orgId: string) {
  const writes = await measureWrites(db, orgId);
  console.log(`  ${engine} writes p50 (ms): ${JSON.stringify(writes)}`);
  if (engine === 'postgres') {
    const { insert, statusChange } = writes.withTriggers;
    check(insert <= BUDGET.postgres.writeP50, `insert p50 ${ms(insert)} ms > 1`);
    check(statusChange <= BUDGET.postgres.writeP50, `status change p50 ${ms(statusChange)} ms > 1`);
  }
  return writes;
}

/** The CSV export of every user, every column. */
async function benchExport({ engine, cookie, check }: Run, publicUrl: string, orgId: string) {
  const exported = await measureExport(publicUrl, orgId, cookie);
  console.log(
    `  ${engine} export of every user: ${exported.rows.toLocaleString('en')} rows, ${exported.megabytes.toFixed(0)} MB in ${exported.seconds.toFixed(1)} s, heap +${exported.heapGrowthMegabytes.toFixed(0)} MB at most`,
  );
  check(exported.rows === exported.announced, `export wrote ${exported.rows} rows of ${exported.announced}`);
  if (engine === 'postgres') {
    check(exported.seconds <= BUDGET.postgres.exportSeconds, `export ${exported.seconds.toFixed(1)} s > 30`);
  }
  return exported;
}

/**
 * The first page at 8 connections for LOAD_SECONDS, after two seconds that warm the pool and the code.
 * The clients run in a worker thread: on the server's own thread they took its time from it.
 */
async function measureFirstPageLoad({ engine, cookie, url, check }: Run) {
  const firstPage = { url: url({ pageSize: 25, pageNumber: 1 }), connections: 8, workers: 1, headers: { cookie } };
  await autocannon({ ...firstPage, duration: 2 });
  const load = await autocannon({ ...firstPage, duration: LOAD_SECONDS });
  const errors = load.errors + load.non2xx + load.timeouts;
  const rps = load.requests.average;
  console.log(`  ${engine} first page at 8 connections: ${rps.toFixed(0)} req/s, ${errors} errors`);
  check(errors === 0, `${errors} errors under load`);
  if (engine === 'postgres') check(rps >= BUDGET.postgres.firstPageRps, `first page ${rps.toFixed(0)} req/s < 1000`);
  return rps;
}

/** The API's measures of one engine, at USERS users. */
async function benchApi(run: Run, database: DatabaseHandle, publicUrl: string, jobs: Config['jobs'], orgId: string) {
  // Shapes first: they ask no search, so that every search below is asked for the first time.
  const shapes = await measureShapes(run);
  const { random, slowest } = await measureRandomSearches(run, database.db, orgId);
  const exactTotal = await measureExactTotal(run);
  const writes = await benchWrites(run, database.db, orgId);
  const exported = await benchExport(run, publicUrl, orgId);
  const firstPageRps = await measureFirstPageLoad(run);
  const actions = await benchActions(run, publicUrl, jobs, database.db, orgId);
  return { shapes, random, slowest, exactTotal, writes, exported, firstPageRps, actions };
}

/**
 * One engine: its organisations seeded (or found), the API, then the search grid (PGlite's at
 * GRID_PGLITE_USERS, in the same database), each when PARTS names it.
 */
async function benchEngine(engine: 'pglite' | 'postgres', databaseUrl: string | undefined) {
  const dataDir = path.join(root, '.bench', 'pglite');
  const database = await openDatabase({ databaseUrl, dataDir });
  const violations: string[] = [];
  const check = (ok: boolean, message: string) => ok || violations.push(message);
  const gridUsers = engine === 'pglite' ? GRID_PGLITE_USERS : USERS;
  const api = PARTS.includes('api') ? await benchOrganization(database, check, USERS) : undefined;
  const gridOrg = PARTS.includes('grid') ? await benchOrganization(database, check, gridUsers) : undefined;

  const port = await freePort();
  // A sign-in must outlast the run: past its access token's lifetime the API answers 401.
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ACCESS_TOKEN_TTL: '86400',
  });
  const app = await buildApp(config, database);
  await app.listen({ host: '127.0.0.1', port });
  const runOf = async ({ orgId, adminEmail }: { orgId: string; adminEmail: string }): Promise<Run> => ({
    engine,
    check,
    cookie: (await signIn(config.publicUrl, adminEmail, 'bench')).jar.header(),
    url(query) {
      const params = toUserListParams(query).toString();
      return `${config.publicUrl}/apis/accounts/api/v3/orgs/${orgId}/users${params ? `?${params}` : ''}`;
    },
  });
  const measured = api && {
    seedSeconds: api.seedSeconds,
    ...(await benchApi(await runOf(api), database, config.publicUrl, config.jobs, api.orgId)),
  };
  const connections = engine === 'pglite' ? 4 : 8;
  const grid =
    gridOrg && (await benchGrid(await runOf(gridOrg), database.db, gridOrg.orgId, gridUsers, GRID_REPEAT, connections));
  await app.close();
  await database.close();
  return { engine, measured, grid, violations };
}

type EngineRun = Awaited<ReturnType<typeof benchEngine>>;
export type EngineResult = NonNullable<EngineRun['measured']> & { engine: EngineRun['engine'] };

const runs: EngineRun[] = [];
for (const engine of (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',')) {
  const result =
    engine === 'postgres'
      ? await withBenchPostgres((databaseUrl: string) => benchEngine('postgres', databaseUrl))
      : await benchEngine('pglite', undefined);
  if (result) runs.push(result);
}
const out = path.join(root, 'bench-results');
mkdirSync(out, { recursive: true });
const results = runs.flatMap(({ engine, measured }) => (measured ? [{ engine, ...measured }] : []));
if (results.length) {
  writeFileSync(path.join(out, 'api.json'), JSON.stringify({ users: USERS, results }, null, 2));
  writeFileSync(path.join(out, 'api.md'), markdown(results, USERS, RUNS));
  console.log(`\n${markdown(results, USERS, RUNS)}`);
}
const grids = runs.flatMap(({ grid }) => (grid ? [grid] : []));
if (grids.length) {
  writeFileSync(path.join(out, 'grid.json'), JSON.stringify(grids));
  writeFileSync(path.join(out, 'grid.md'), gridMarkdown(grids));
  console.log(`\n${gridSummary(grids).join('\n')}`);
}
const violations = runs.flatMap((r) => r.violations.map((v) => `${r.engine}: ${v}`));
if (violations.length) {
  console.log(`\nBudgets missed:\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.log('\nEvery budget met.');
process.exit(0);
