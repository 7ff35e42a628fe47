// A throwaway PostgreSQL cluster for tests and benchmarks: its own temporary folder, loopback,
// a free port, stopped and removed by the caller. Runs initdb as `postgres` when we are root.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(base, version, 'bin');
    if (existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

/**
 * A PostgreSQL cluster in a temporary folder, on loopback and a free port, for this run only.
 * `locale` is its databases' locale: the tests' `C`, the benchmarks' `C.UTF-8` (as a server is
 * usually made); `sharedBuffers` PostgreSQL's own cache. Long as one piece: initdb, start, wait
 * and the stop it returns share the cluster's folder and process.
 */
export async function startThrowawayPostgres(bin, { locale = 'C', sharedBuffers = '128MB' } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const as = (command, args) => (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);
  const dataDir = path.join(dir, 'data');
  const [initCmd, initArgs] = as(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    locale === 'C' ? '--no-locale' : `--locale=${locale}`,
  ]);
  const init = spawnSync(initCmd, initArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (init.status !== 0) throw new Error('initdb failed');
  const port = await freePort();
  // No fsync (a throwaway), but commits stay synchronous: a vacuum right after a load could not mark the
  // rows of commits not yet flushed visible to all, and index-only scans would read the table for them.
  const [pgCmd, pgArgs] = as(path.join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
    '-c',
    `shared_buffers=${sharedBuffers}`,
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  let server;
  let log = '';
  /** Starts the postmaster and waits until it accepts connections. */
  const startServer = async () => {
    server = spawn(pgCmd, pgArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr.on('data', (chunk) => {
      log += chunk;
    });
    for (let attempt = 0; ; attempt++) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        break;
      } catch (error) {
        if (attempt > 100 || server.exitCode !== null) throw new Error(`PostgreSQL did not start: ${error}\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  /** Stops the postmaster (`fast`: ends every connection, as an administrator's restart does). */
  const stopServer = async (mode = 'fast') => {
    // pg_ctl signals the postmaster itself: a signal to `runuser` does not reach it.
    const [stopCmd, stopArgs] = as(path.join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', mode]);
    spawnSync(stopCmd, stopArgs, { stdio: 'ignore' });
    if (server.exitCode === null && server.signalCode === null) {
      await new Promise((resolve) => server.once('exit', resolve));
    }
  };
  await startServer();
  return {
    url,
    port,
    dataDir,
    /** Stops the server and keeps its data: `startServer` brings it back on the same port. */
    stopServer,
    startServer,
    async stop() {
      await stopServer('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `run` on the PostgreSQL of BENCH_DATABASE_URL, else on a throwaway local cluster stopped
 * afterwards; without either, says so and resolves undefined (the benchmarks' PostgreSQL pass).
 */
export async function withBenchPostgres(run) {
  if (process.env.BENCH_DATABASE_URL) return run(process.env.BENCH_DATABASE_URL);
  const bin = findPostgresBin();
  if (!bin) {
    console.log('No PostgreSQL installed and no BENCH_DATABASE_URL: skipping PostgreSQL.');
    return undefined;
  }
  // As a server of its own is set: a quarter of its memory for shared buffers, at most 1 GB here.
  const postgres = await startThrowawayPostgres(bin, { locale: 'C.UTF-8', sharedBuffers: '1GB' });
  try {
    return await run(postgres.url);
  } finally {
    await postgres.stop();
  }
}
