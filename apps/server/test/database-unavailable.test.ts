import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types.
import { findPostgresBin, startThrowawayPostgres } from '../../../scripts/throwaway-postgres.mjs';
import { buildApp } from '../src/app.ts';
import { EMBEDDED_CLIENT_ID } from '../src/auth/identity-provider.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { DEMO_ORGS, seedDemoIfEmpty } from '../src/db/seed.ts';
import { signIn } from './support/sign-in.ts';
import { freePort } from './support/test-server.ts';

interface ThrowawayPostgres {
  url: string;
  dataDir: string;
  stopServer(mode?: 'fast' | 'immediate' | 'smart'): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

const bin: string | undefined = findPostgresBin();
// This file stops and starts its own PostgreSQL cluster, so it runs once: in the embedded pass of
// `npm run test:api`, not again in the pass on TEST_DATABASE_URL.
const skipReason = !bin
  ? 'PostgreSQL is not installed (apt-get install postgresql): the outage test needs a cluster it may stop'
  : process.env.TEST_DATABASE_URL
    ? 'runs once, in the pass on the embedded database, with a PostgreSQL cluster of its own'
    : undefined;
if (skipReason) console.log(`database-unavailable.test.ts skipped: ${skipReason}`);

const BOUND_MS = 5000;

/** The postmaster and its backends, by process id: a frozen cluster accepts connections and never answers. */
function clusterProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}
const USERS = `/apis/accounts/api/v3/orgs/${DEMO_ORGS.acme.id}/users`;

describe.skipIf(skipReason !== undefined)('PostgreSQL stopped while the server runs', () => {
  let postgres: ThrowawayPostgres;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;
  let cookie: string;

  const timed = async (path: string, headers: Record<string, string> = { cookie }) => {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers });
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started, headers: response.headers };
  };

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(bin);
    const port = await freePort();
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: postgres.url,
      LOG_LEVEL: 'silent',
    });
    // As server.ts opens it: the same timeouts, and the pool's lost connections reported, not fatal.
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      queryTimeoutMs: config.databaseQueryTimeoutMs,
    });
    await seedDemoIfEmpty(database.db);
    app = await buildApp(config, database);
    await app.listen({ host: '127.0.0.1', port });
    baseUrl = config.publicUrl;
    cookie = (await signIn(baseUrl, 'admin@acme.example', 'admin')).jar.header();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await postgres?.stop();
  });

  it('answers 503 within 5 s when PostgreSQL hangs (accepts, never answers), and recovers when it answers again', async () => {
    await Promise.all(Array.from({ length: 8 }, () => timed(USERS)));
    const frozen = clusterProcesses(postgres.dataDir);
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    try {
      // Pooled connections wait for the statement timeout; new ones for the connection timeout.
      const answers = await Promise.all(
        [USERS, `${USERS}?filter%5Bquery%5D=ann`, '/apis/oidc/userinfo', ...Array(10).fill(USERS)].map((p) => timed(p)),
      );
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.ms).toBeLessThan(BOUND_MS);
        expect(JSON.parse(answer.text)).toMatchObject({ errors: [{ status: '503', code: 'database_unavailable' }] });
      }
      console.log(`hung database: 503 after ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms at most`);
      const ready = await timed('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.ms).toBeLessThan(BOUND_MS);
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      // `runuser` (when the cluster runs as postgres) stops itself when its child stops: wake it too.
      const stat = readFileSync(`/proc/${frozen[0]}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid && stat && /\(runuser\)/.test(readFileSync(`/proc/${parent}/stat`, 'utf8'))) {
        process.kill(parent, 'SIGCONT');
      }
    }
    const thawed = performance.now();
    let answer = await timed(USERS);
    while (answer.status !== 200 && performance.now() - thawed < 10_000) answer = await timed(USERS);
    expect(answer.status).toBe(200);
  });

  it('keeps serving when PostgreSQL ends the connections of requests in flight (an administrator, a failover)', async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      const answers: number[] = [];
      for (let round = 0; round < 25; round++) {
        const requests = Array.from({ length: 10 }, (_, index) =>
          timed(index % 2 ? USERS : `${USERS}?sort=name&filter%5Bquery%5D=a&page%5Bnumber%5D=3`),
        );
        await new Promise((resolve) => setTimeout(resolve, round % 5));
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        for (const answer of await Promise.all(requests)) answers.push(answer.status);
      }
      // Each answer is the page or the database's 503 (never a 500), and this process is still here.
      expect(answers.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect((await timed(USERS)).status).toBe(200);
    } finally {
      await admin.end();
    }
  });

  it('answers 503 with a JSON:API error within 5 s, and recovers by itself when PostgreSQL returns', async () => {
    // Every pool connection is open and idle when PostgreSQL goes away.
    await Promise.all(Array.from({ length: 8 }, () => timed(USERS)));
    expect((await timed(USERS)).status).toBe(200);
    expect((await timed(`${USERS}?sort=name&filter%5Bquery%5D=ann`)).status).toBe(200);
    expect((await timed('/readyz')).status).toBe(200);
    const clientSecret = (
      await database.db
        .selectFrom('app_secrets')
        .select('value')
        .where('name', '=', 'oidc_client_secret')
        .executeTakeFirstOrThrow()
    ).value;

    await postgres.stopServer('fast');

    for (const target of [USERS, `${USERS}?sort=name&filter%5Bquery%5D=ann`, '/apis/oidc/userinfo']) {
      const answer = await timed(target);
      console.log(`stopped database: ${target} answered ${answer.status} in ${Math.round(answer.ms)} ms`);
      expect(answer.status, `${target}: ${answer.text}`).toBe(503);
      expect(answer.ms).toBeLessThan(BOUND_MS);
      expect(answer.headers.get('content-type')).toContain('application/vnd.api+json');
      const document = JSON.parse(answer.text) as { errors: { status: string; title: string; detail?: string }[] };
      expect(document.errors[0]).toMatchObject({
        status: '503',
        code: 'database_unavailable',
        title: 'Service unavailable',
        detail: expect.stringContaining('database'),
      });
      expect(answer.text).not.toMatch(/\bat .*\.ts:\d+|stack|select |ECONNREFUSED|127\.0\.0\.1/i);
    }
    // The identity provider's sign-in page says the same, as HTML, without detail.
    const start = await fetch(`${baseUrl}/auth/start`, { redirect: 'manual' });
    const idp = await fetch(new URL(start.headers.get('location') ?? '', baseUrl), { redirect: 'manual' });
    const idpPage = await idp.text();
    expect(idp.status).toBe(503);
    expect(idpPage).toContain('Something went wrong');
    expect(idpPage).not.toMatch(/ECONNREFUSED|select |\.ts:\d+/);
    // And its JSON endpoints: "try again shortly", not a fault of theirs (500 server_error).
    const token = await fetch(`${baseUrl}/idp/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${EMBEDDED_CLIENT_ID}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'some-code',
        redirect_uri: `${baseUrl}/auth/callback`,
      }),
    });
    expect(token.status).toBe(503);
    expect(token.headers.get('retry-after')).toBe('5');
    expect(await token.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'the database is unavailable; try again shortly',
    });
    const ready = await timed('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(BOUND_MS);
    expect(JSON.parse(ready.text)).toEqual({ status: 'unavailable', database: 'unreachable' });
    const healthy = await timed('/healthz');
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.text)).toEqual({ status: 'ok' });

    await postgres.startServer();
    const returned = performance.now();
    let answer = await timed(USERS);
    while (answer.status !== 200 && performance.now() - returned < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await timed(USERS);
    }
    console.log(`recovered ${Math.round(performance.now() - returned)} ms after PostgreSQL accepted connections`);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.text) as { meta: { total_count: number } }).meta.total_count).toBe(423);
    // The session survived the outage: it lives in the database, not in the connection.
    expect((await timed('/apis/oidc/userinfo')).status).toBe(200);
    expect((await timed('/readyz')).status).toBe(200);
  });
});
