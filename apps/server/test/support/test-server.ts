import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { seedDemoIfEmpty } from '../../src/db/seed.ts';
import { startJobWorker } from '../../src/jobs/job-worker.ts';
import { createInvitations } from '../../src/repositories/invitations-repository.ts';
import { demoTemplate } from './demo-template.ts';
import { statementRecorder } from './tenant-keys.ts';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface TestServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The real server on a free loopback port over a fresh database: PGlite in memory, or the
 * PostgreSQL of TEST_DATABASE_URL (a fresh schema each time) when the suite runs against it.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  // A caller that must know the address first (an external issuer registers it) passes PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const scratch = process.env.TEST_DATABASE_URL
    ? await createScratchDatabase(process.env.TEST_DATABASE_URL)
    : undefined;
  // `npm run test:api` records what the server sends to check that each is keyed by one organisation.
  const recorder = process.env.SQL_STATEMENTS_DIR ? statementRecorder(process.env.SQL_STATEMENTS_DIR) : undefined;
  const database = await openDatabase({
    databaseUrl: scratch?.url,
    dataDir: 'memory://',
    onStatement: recorder?.onStatement,
    loadDataDir: scratch ? undefined : await demoTemplate(),
  });
  await seedDemoIfEmpty(database.db);
  const app = await buildApp(config, database);
  recorder?.watch(app.server);
  await app.listen({ host: '127.0.0.1', port });
  // The worker's statements are checked as the requests' are.
  const start = () =>
    startJobWorker(database.db, {
      ...config.jobs,
      invitations: createInvitations(config, app.log),
      log: app.log,
    });
  const worker = recorder ? recorder.recording(start) : start();
  return {
    app,
    database,
    baseUrl: config.publicUrl,
    async close() {
      const closed = Promise.all([app.close(), worker.stop()]);
      // A test that did not read an answer's body (the page's HTML, 26 KB with its styles) leaves
      // its connection busy, and a graceful close would wait for it forever: the tests are over.
      app.server.closeAllConnections();
      await closed;
      await database.close();
      await scratch?.drop();
    },
  };
}

/** A new, empty database on the PostgreSQL server of `adminUrl`, dropped after the test. */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `users_admin_test_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // A pool's end() resolves before its connections have closed: dropped `with (force)` at once, a
  // connection still closing got PostgreSQL's "terminating connection" as an error that nobody
  // handled any more. The drop waits up to 5 s for them to go, and forces only those left.
  const drop = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      for (let waited = 0; waited < 5_000; waited += 50) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  return { url: url.href, drop };
}
