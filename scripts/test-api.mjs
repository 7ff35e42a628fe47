// `npm run test:api`: the API tests on the embedded database (PGlite), then on PostgreSQL:
// the server of TEST_DATABASE_URL if set, else a throwaway local one when PostgreSQL is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, startThrowawayPostgres } from './throwaway-postgres.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Two files at a time even on two cores (Vitest's default there is one): each file has its own
// database (a PGlite folder, or a scratch database on PostgreSQL), and the tests mostly wait on it.
// Measured on 2 cores: PGlite 271 → 154 s, PostgreSQL 143 → 73 s.
const workers = String(Math.max(2, os.availableParallelism() - 1));
const vitestArgs = ['vitest', 'run', '--project', 'server', '--maxWorkers', workers, ...process.argv.slice(2)];

// What no engine changes: units beside the code (texts, rules, parsers) and answers decided before
// any statement (headers, scripts, compression, the page's files). They run on PGlite alone.
const ENGINE_FREE = [
  'src/**/*.test.ts',
  'test/security-headers.test.ts',
  'test/micro-frontends.test.ts',
  'test/micro-frontend-scripts.test.ts',
  'test/compression.test.ts',
  'test/web-app.test.ts',
  'test/migrations-up-to-date.test.ts',
];
const onPostgres = ENGINE_FREE.flatMap((glob) => ['--exclude', glob]);

/**
 * The API tests on one engine, recording every statement the server sends while it answers them;
 * then the check that each is keyed by one organisation (test/tenant-keys.test.ts).
 */
function run(label, env, extraArgs = []) {
  console.log(`\n== API tests on ${label}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-statements-'));
  const withDir = { ...process.env, ...env, SQL_STATEMENTS_DIR: dir };
  try {
    const tests = spawnSync('npx', [...vitestArgs, ...extraArgs], { cwd: root, stdio: 'inherit', env: withDir });
    if (tests.status !== 0) return tests.status ?? 1;
    const check = spawnSync(
      'npx',
      ['vitest', 'run', '--project', 'server', 'test/tenant-keys.test.ts', '--reporter', 'dot'],
      { cwd: root, stdio: 'inherit', env: { ...withDir, CHECK_RECORDED_STATEMENTS: '1' } },
    );
    return check.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let status = run('the embedded database (PGlite)', { TEST_DATABASE_URL: '' });
if (process.env.TEST_DATABASE_URL) {
  status ||= run('PostgreSQL (TEST_DATABASE_URL)', {}, onPostgres);
} else {
  const bin = findPostgresBin();
  if (bin) {
    const postgres = await startThrowawayPostgres(bin);
    try {
      status ||= run(
        `a throwaway PostgreSQL (${path.basename(path.dirname(bin))})`,
        { TEST_DATABASE_URL: postgres.url },
        onPostgres,
      );
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
