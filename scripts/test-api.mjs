// `npm run test:api`: the API tests on the embedded database (PGlite), then on PostgreSQL:
// the server of TEST_DATABASE_URL if set, else a throwaway local one when PostgreSQL is installed.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitestArgs = ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)];

function run(label, env) {
  console.log(`\n== API tests on ${label}`);
  const result = spawnSync('npx', vitestArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

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

function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(base, version, 'bin');
    if (existsSync(path.join(bin, 'initdb'))) return bin;
  }
  return undefined;
}

/** A PostgreSQL cluster in a temporary folder, on loopback and a free port, for this run only. */
async function startThrowawayPostgres(bin) {
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
    '--no-locale',
  ]);
  const init = spawnSync(initCmd, initArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (init.status !== 0) throw new Error('initdb failed');
  const port = await freePort();
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
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  const server = spawn(pgCmd, pgArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr.on('data', (chunk) => {
    log += chunk;
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
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
  return {
    url,
    async stop() {
      // pg_ctl signals the postmaster itself: a signal to `runuser` does not reach it.
      const [stopCmd, stopArgs] = as(path.join(bin, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate']);
      spawnSync(stopCmd, stopArgs, { stdio: 'ignore' });
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let status = run('the embedded database (PGlite)', { TEST_DATABASE_URL: '' });
if (process.env.TEST_DATABASE_URL) {
  status ||= run('PostgreSQL (TEST_DATABASE_URL)', {});
} else {
  const bin = findPostgresBin();
  if (bin) {
    const postgres = await startThrowawayPostgres(bin);
    try {
      status ||= run(`a throwaway PostgreSQL (${path.basename(path.dirname(bin))})`, {
        TEST_DATABASE_URL: postgres.url,
      });
    } finally {
      await postgres.stop();
    }
  } else {
    console.log(
      '\n== No PostgreSQL installed (apt-get install postgresql) and no TEST_DATABASE_URL: the API tests ran on PGlite only.',
    );
  }
}
process.exit(status);
