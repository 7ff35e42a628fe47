import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database.ts';
import { createAccount } from '../src/db/seed.ts';
import { apiCaller } from './support/actions-org.ts';
import { demoDataFolder } from './support/demo-template.ts';
import { changesPerUser, crowdOrg, followJob, postJob } from './support/jobs.ts';
import { killProcess, type ServerProcess, spawnServer } from './support/server-process.ts';
import { signIn } from './support/sign-in.ts';
import { createScratchDatabase } from './support/test-server.ts';

const USERS = 3000;
const JOB_ENV = { JOB_BATCH_SIZE: '20', JOB_LEASE_SECONDS: '2' };
const finished = (job: { status: string }) => !['queued', 'running'].includes(job.status);

/** An organisation of USERS users and its admin, `admin@<slug>.example` (password `admin`). */
async function orgWithAdmin(db: Db, slug: string) {
  const org = await crowdOrg(db, slug, USERS);
  await createAccount(db, {
    email: `admin@${slug}.example`,
    password: 'admin',
    name: `${slug} Admin`,
    firstName: slug,
    lastName: 'Admin',
    locale: 'en',
    memberships: [{ orgId: org.id, isSystemAdmin: true }],
  });
  return org;
}

/** Every user changed exactly once by the job, every result kept once, every kept count right. */
async function expectEachUserOnce(db: Db, orgId: string, jobId: string) {
  expect(await changesPerUser(db, orgId, jobId)).toEqual({ events: USERS, users: USERS, max_version: '2' });
  const { rows } = await sql<{ results: number; mismatches: number }>`
    select (select count(*)::int from job_results where org_id = ${orgId} and job_id = ${jobId}) as results,
      (select count(*)::int from (
        select status, is_system_admin, is_external, count(*) as n from users where org_id = ${orgId} group by 1, 2, 3
      ) actual full join (select * from user_counts where org_id = ${orgId}) kept
        using (status, is_system_admin, is_external)
      where coalesce(actual.n, 0) <> coalesce(kept.n, 0)) as mismatches`.execute(db);
  expect(rows[0]).toEqual({ results: USERS + 1, mismatches: 0 });
}

const expectDone = (job: object | undefined) =>
  expect(job).toMatchObject({ status: 'done', total: USERS + 1, processed: USERS + 1, skipped: { unchanged: 1 } });

describe.skipIf(process.env.TEST_DATABASE_URL)('a job after kill -9 (embedded database)', () => {
  let running: ServerProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    await killProcess(running);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes after the last committed batch after kill -9 and after SIGTERM, changing nobody twice', async () => {
    dataDir = await demoDataFolder('users-admin-job-crash-');
    const setUp = await openDatabase({ dataDir });
    const org = await orgWithAdmin(setUp.db, 'crash');
    await setUp.close();
    running = await spawnServer({ DATA_DIR: dataDir, ...JOB_ENV });
    const call = () => apiCaller(running?.baseUrl ?? '');
    const jar = (await signIn(running.baseUrl, 'admin@crash.example', 'admin')).jar;
    const { location, job } = await postJob(call(), jar, org.id, {
      action: 'set_user_type',
      is_system_admin: true,
      filter: '',
    });
    const before = await followJob(call(), jar, location, (s) => s.processed >= 400 || finished(s));
    running.child.kill('SIGKILL');
    expect((await running.exited).signal).toBe('SIGKILL');
    expect(before.at(-1)?.status).toBe('running');

    // Started again: the job goes on after the kill; then SIGTERM in its middle stops the server cleanly.
    running = await spawnServer({ DATA_DIR: dataDir, ...JOB_ENV });
    const resumed = await followJob(call(), jar, location, (s) => s.processed >= 1200 || finished(s));
    expect(resumed[0]?.processed).toBeGreaterThanOrEqual(before.at(-1)?.processed ?? 0);
    expect(resumed.at(-1)?.status).toBe('running');
    running.child.kill('SIGTERM');
    expect((await running.exited).code, running.stdout() + running.stderr()).toBe(0);

    running = await spawnServer({ DATA_DIR: dataDir, ...JOB_ENV });
    expectDone((await followJob(call(), jar, location, finished)).at(-1));
    running.child.kill('SIGTERM');
    expect((await running.exited).code, running.stdout() + running.stderr()).toBe(0);
    const database = await openDatabase({ dataDir });
    try {
      await expectEachUserOnce(database.db, org.id, job.id);
    } finally {
      await database.close();
    }
  }, 180_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('two server instances on one PostgreSQL', () => {
  const servers: ServerProcess[] = [];
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  afterAll(async () => {
    for (const server of servers) await killProcess(server);
    await database?.close();
    await scratch?.drop();
  });
  const claims = (server: ServerProcess) =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"job claimed"'))
      .map((line) => JSON.parse(line) as { job: string; processed: number });

  it('share the jobs, and one takes over the jobs of the other killed: no batch twice', async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? '');
    const env = { DATABASE_URL: scratch.url, LOG_LEVEL: 'info', ...JOB_ENV };
    const [a, b] = [await spawnServer(env), await spawnServer(env)] as [ServerProcess, ServerProcess];
    servers.push(a, b);
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    const orgs = [];
    for (const slug of ['two-a', 'two-b', 'two-c']) orgs.push(await orgWithAdmin(database.db, slug));
    const call = apiCaller(a.baseUrl);
    const jobs = [];
    for (const org of orgs) {
      const { jar } = await signIn(a.baseUrl, `admin@${org.slug}.example`, 'admin');
      const attributes = { action: 'set_user_type', is_system_admin: true, filter: '' };
      jobs.push({ org, jar, ...(await postJob(call, jar, org.id, attributes)) });
    }
    await expect.poll(() => claims(a).length > 0 && claims(b).length > 0).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    a.child.kill('SIGKILL');
    await a.exited;

    for (const { org, jar, location, job } of jobs) {
      expectDone((await followJob(apiCaller(b.baseUrl), jar, location, finished, 120_000)).at(-1));
      await expectEachUserOnce(database.db, org.id, job.id);
    }
    // b resumed a job that a had begun: its claim found batches already committed.
    expect(claims(b).some((claim) => claim.processed > 0)).toBe(true);
    b.child.kill('SIGTERM');
    expect((await b.exited).code, b.stdout() + b.stderr()).toBe(0);
  }, 180_000);
});
