// The load test: the users list held for a while (60 s by default) at 8 concurrent
// clients with a mix of request shapes on a large organisation, against a server in its own process.
// It requires zero errors, zero non-2xx and zero 5xx, reports throughput and p99, and samples the
// server's memory (RSS, and the heap after a full collection) to fail if it keeps growing.
// `npm run bench:load` runs it at full length; apps/server/test/load.test.ts runs it for 5 s.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { toUserListParams, type UserListQuery } from '@users-admin/contract';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.ts';
import { ensureLargeOrganization } from '../src/db/seed-large.ts';
import { signIn } from '../test/support/sign-in.ts';
import { startServerProcess } from './load-server.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const MB = 1024 * 1024;

export interface LoadTestOptions {
  /** How long the list is held, after the warm-up. */
  durationSeconds: number;
  connections?: number;
  /** Size of the generated organisation. */
  users: number;
  /** A PostgreSQL database; without it the embedded one in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  warmupSeconds?: number;
  /**
   * Memory bounds over the run, from the level after the warm-up: the peak RSS may exceed it by
   * `maxRssGrowthMb` or by `maxRssGrowthRatio`, whichever is more (V8 lets garbage pile up between
   * collections); the heap after a full collection may grow by `maxHeapGrowthRatio` (a leak).
   */
  maxRssGrowthMb?: number;
  maxRssGrowthRatio?: number;
  maxHeapGrowthRatio?: number;
  log?: (line: string) => void;
}

export interface MemorySample {
  atSeconds: number;
  rssMb: number;
  heapUsedMb: number;
}

export interface LoadTestResult {
  engine: 'pglite' | 'postgres';
  users: number;
  connections: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  serverErrors: number;
  memory: {
    warmRssMb: number;
    peakRssMb: number;
    endRssAfterGcMb: number;
    warmHeapAfterGcMb: number;
    endHeapAfterGcMb: number;
    samples: MemorySample[];
  };
  violations: string[];
}

/** The mix: what people do on the page, from first pages to deep pages, filters and searches. */
function requestShapes(users: number): UserListQuery[] {
  const last = Math.max(1, Math.ceil(users / 25));
  const page = (pageNumber: number, extra: Partial<UserListQuery> = {}): UserListQuery => ({
    pageSize: 25,
    pageNumber,
    ...extra,
  });
  return [
    page(1),
    page(2),
    page(1, { sort: 'name' }),
    page(Math.ceil(last / 2), { sort: 'name' }),
    page(last, { sort: '-name' }),
    page(Math.ceil(last / 3)),
    page(1, { pageSize: 100 }),
    page(3, { pageSize: 50, sort: 'name' }),
    page(1, { status: 'active' }),
    page(1, { status: 'pending', sort: '-name' }),
    page(1, { isSystemAdmin: true }),
    page(1, { search: 'a' }),
    page(1, { search: 'ann' }),
    page(2, { search: 'son', sort: 'name' }),
    page(1, { search: 'williams', status: 'active' }),
    page(1, { search: 'zzzzqq' }),
  ];
}

/** The organisation the load runs on, seeded once per database (kept between runs of the bench). */
async function ensureOrganization(options: LoadTestOptions): Promise<{ orgId: string; email: string }> {
  const slug = `load-${options.users}`;
  const email = `admin@${slug}.example`;
  if (!options.databaseUrl) mkdirSync(options.dataDir, { recursive: true });
  const database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    const { orgId } = await ensureLargeOrganization(database, {
      name: `Load ${options.users}`,
      slug,
      users: options.users,
      seed: 11,
      adminFirstName: 'Load',
      adminPassword: 'load',
      beforeSeeding: () =>
        options.log?.(`seeding an organisation of ${options.users.toLocaleString('en')} users on ${database.engine}…`),
    });
    return { orgId, email };
  } finally {
    await database.close();
  }
}

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

// Long as one piece, as the file: the server process, the clients and the memory samples share one run's state.
export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestResult> {
  const log = options.log ?? (() => {});
  const connections = options.connections ?? 8;
  const warmupSeconds = options.warmupSeconds ?? Math.min(5, Math.max(2, options.durationSeconds / 4));
  const maxRssGrowthMb = options.maxRssGrowthMb ?? 100;
  const maxRssGrowthRatio = options.maxRssGrowthRatio ?? 0.5;
  const maxHeapGrowthRatio = options.maxHeapGrowthRatio ?? 0.5;
  const engine = options.databaseUrl ? 'postgres' : 'pglite';

  const { orgId, email } = await ensureOrganization(options);
  const server = await startServerProcess({
    DATA_DIR: options.dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  try {
    const cookie = (await signIn(server.baseUrl, email, 'load')).jar.header();
    const requests = requestShapes(options.users).map((query) => {
      const params = toUserListParams(query).toString();
      return { method: 'GET' as const, path: `/apis/accounts/api/v3/orgs/${orgId}/users${params ? `?${params}` : ''}` };
    });
    const cannon = (seconds: number) =>
      autocannon({ url: server.baseUrl, connections, duration: seconds, headers: { cookie }, requests, timeout: 10 });

    log(`${engine}: warming up for ${warmupSeconds} s…`);
    const warmup = await cannon(warmupSeconds);
    if (warmup.non2xx + warmup.errors > 0)
      throw new Error(`warm-up: ${warmup.non2xx} non-2xx, ${warmup.errors} errors`);
    const warm = await server.memory(true);
    log(`${engine}: warm: RSS ${mb(warm.rss)} MB, heap after GC ${mb(warm.heapUsed)} MB`);

    const samples: MemorySample[] = [];
    const started = performance.now();
    let serverErrors = 0;
    let non2xx = 0;
    const instance = cannon(options.durationSeconds);
    (instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, statusCode: number) => {
      if (statusCode >= 500) serverErrors++;
      if (statusCode < 200 || statusCode >= 300) non2xx++;
    });
    let sampling = true;
    const sampler = (async () => {
      let lastPrinted = 0;
      while (sampling) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        if (!sampling) break;
        const memory = await server.memory(false);
        const atSeconds = Math.round((performance.now() - started) / 100) / 10;
        samples.push({ atSeconds, rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed) });
        if (atSeconds - lastPrinted >= 5) {
          lastPrinted = atSeconds;
          log(
            `${engine}: ${Math.min(atSeconds, options.durationSeconds).toFixed(0)} / ${options.durationSeconds} s  RSS ${mb(memory.rss)} MB  heap ${mb(memory.heapUsed)} MB  5xx ${serverErrors}  non-2xx ${non2xx}`,
          );
        }
      }
    })();
    const result = await instance;
    sampling = false;
    await sampler;
    const end = await server.memory(true);

    const peakRssMb = Math.max(mb(warm.rss), ...samples.map((s) => s.rssMb));
    const violations: string[] = [];
    if (result.errors > 0) violations.push(`${result.errors} connection errors`);
    if (result.timeouts > 0) violations.push(`${result.timeouts} timeouts`);
    if (result.non2xx > 0 || non2xx > 0) violations.push(`${Math.max(result.non2xx, non2xx)} answers not 2xx`);
    if (result['5xx'] > 0 || serverErrors > 0) violations.push(`${Math.max(result['5xx'], serverErrors)} answers 5xx`);
    if (result.requests.total === 0) violations.push('no request answered');
    const rssBoundMb = Math.max(maxRssGrowthMb, mb(warm.rss) * maxRssGrowthRatio);
    if (peakRssMb - mb(warm.rss) > rssBoundMb) {
      violations.push(`RSS grew from ${mb(warm.rss)} MB to ${peakRssMb} MB (bound: +${Math.round(rssBoundMb)} MB)`);
    }
    if (end.heapUsed > warm.heapUsed * (1 + maxHeapGrowthRatio)) {
      violations.push(
        `heap after GC grew from ${mb(warm.heapUsed)} MB to ${mb(end.heapUsed)} MB (bound: +${maxHeapGrowthRatio * 100}%)`,
      );
    }
    return {
      engine,
      users: options.users,
      connections,
      durationSeconds: options.durationSeconds,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: Math.max(result.non2xx, non2xx),
      serverErrors: Math.max(result['5xx'], serverErrors),
      memory: {
        warmRssMb: mb(warm.rss),
        peakRssMb,
        endRssAfterGcMb: mb(end.rss),
        warmHeapAfterGcMb: mb(warm.heapUsed),
        endHeapAfterGcMb: mb(end.heapUsed),
        samples,
      },
      violations,
    };
  } finally {
    const code = await server.stop();
    if (code !== 0) log(`${engine}: the server exited with ${code} after the load:\n${server.output()}`);
  }
}

export function describeResult(r: LoadTestResult): string {
  return [
    `${r.engine}: ${r.users.toLocaleString('en')} users, ${r.connections} connections, ${r.durationSeconds} s`,
    `  ${r.requests.toLocaleString('en')} requests, ${r.requestsPerSecond} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
    `  errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}, 5xx ${r.serverErrors}`,
    `  memory: RSS ${r.memory.warmRssMb} MB warm, ${r.memory.peakRssMb} MB peak, ${r.memory.endRssAfterGcMb} MB at the end; heap after GC ${r.memory.warmHeapAfterGcMb} → ${r.memory.endHeapAfterGcMb} MB`,
    r.violations.length ? `  FAILED: ${r.violations.join('; ')}` : '  passed',
  ].join('\n');
}

async function main() {
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  const users = Number(process.env.LOAD_USERS ?? 20_000);
  const engines = (process.env.LOAD_ENGINES ?? 'pglite,postgres').split(',');
  // @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types.
  const { withBenchPostgres } = await import('../../../scripts/throwaway-postgres.mjs');
  const results: LoadTestResult[] = [];
  for (const engine of engines) {
    const dataDir = path.join(root, '.bench', `load-pglite-${users}`);
    const log = (line: string) => console.log(line);
    if (engine === 'pglite') {
      results.push(await runLoadTest({ durationSeconds: seconds, users, dataDir, log }));
      continue;
    }
    const result = await withBenchPostgres((databaseUrl: string) =>
      runLoadTest({ durationSeconds: seconds, users, dataDir, databaseUrl, log }),
    );
    if (result) results.push(result);
  }
  console.log(`\n${results.map(describeResult).join('\n')}`);
  process.exit(results.some((r) => r.violations.length > 0) ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
