import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { claimJob, runBatch } from '../src/jobs/job-batches.ts';
import { startJobWorker } from '../src/jobs/job-worker.ts';
import { createInvitations } from '../src/repositories/invitations-repository.ts';
import { createJobsRepository } from '../src/repositories/jobs-repository.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { changesPerUser, crowdOrg } from './support/jobs.ts';
import { useOwnDatabase } from './support/own-database.ts';

/** The jobs table's claims and leases on their own, and two workers sharing jobs, on either engine. */
describe('job leases', () => {
  const database = useOwnDatabase();
  const settings = { publicUrl: 'http://127.0.0.1', invitationTtlSeconds: 60, smtpUrl: undefined };
  const batch = { batchSize: 10, leaseSeconds: 30, invitations: createInvitations(settings, { info: () => {} }) };

  /** A queued job making the `users` users of a new organisation System Admins. */
  async function queuedJob(slug: string, users: number) {
    const { db } = database;
    const org = await crowdOrg(db, slug, users);
    const jobs = createJobsRepository(db, createUsersRepository(db));
    const actorId = '00000000-0000-7000-8000-000000000000';
    const asked = { action: 'set_user_type', isSystemAdmin: true } as const;
    const query = { pageSize: 25, pageNumber: 1 };
    return { org, job: await jobs.create({ orgId: org.id, actorId, requestId: 'test', query, ...asked }) };
  }
  const unclaimed = () =>
    sql`update jobs set status = 'done' where status in ('queued', 'running')`.execute(database.db);

  it('gives a job to one of two instances claiming at once', async () => {
    await unclaimed();
    const { job } = await queuedJob('claim-once', 5);
    const claims = await Promise.all([claimJob(database.db, 'a', 30), claimJob(database.db, 'b', 30)]);
    expect(claims.filter((claim) => claim?.id === job.id)).toHaveLength(1);
    expect(await claimJob(database.db, 'c', 30)).toBeUndefined();
  });

  it('takes over a job whose lease ran out: the instance that held it runs no batch of it again', async () => {
    await unclaimed();
    const { db } = database;
    const { org, job } = await queuedJob('take-over', 35);
    expect((await claimJob(db, 'a', 30))?.lease_owner).toBe('a');
    expect(await runBatch(db, job, 'a', batch)).toBe('more');
    // Instance a stops answering: its lease runs out, and b claims the job.
    await sql`update jobs set lease_expires_at = now() - interval '1 second' where id = ${job.id}`.execute(db);
    expect((await claimJob(db, 'b', 30))?.processed).toBe(10);
    expect(await Promise.all([runBatch(db, job, 'a', batch), runBatch(db, job, 'b', batch)])).toEqual(['lost', 'more']);
    expect(await runBatch(db, job, 'b', batch)).toBe('more');
    expect(await runBatch(db, job, 'b', batch)).toBe('finished');
    const done = await db.selectFrom('jobs').selectAll().where('org_id', '=', org.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'done', processed: 35, done: 35, lease_owner: null });
    expect(await changesPerUser(db, org.id, job.id)).toEqual({ events: 35, users: 35, max_version: '2' });
  });

  it('stops a job that keeps failing as failed', async () => {
    await unclaimed();
    const { job } = await queuedJob('poison', 1);
    await sql`update jobs set attempts = 5 where id = ${job.id}`.execute(database.db);
    expect((await claimJob(database.db, 'a', 30))?.status).toBe('failed');
    expect(await claimJob(database.db, 'a', 30)).toBeUndefined();
  });

  it('shares jobs between two workers, which never change a user twice', async () => {
    await unclaimed();
    const claimedBy = new Set<string>();
    const log = {
      info: (fields: { owner?: string }, message: string) =>
        message === 'job claimed' && claimedBy.add(fields.owner ?? ''),
      error: (fields: unknown) => expect.fail(JSON.stringify(fields)),
    } as unknown as FastifyBaseLogger;
    const made = [await queuedJob('share-1', 300), await queuedJob('share-2', 300), await queuedJob('share-3', 300)];
    const options = { ...batch, log };
    const workers = [startJobWorker(database.db, options), startJobWorker(database.db, options)];
    const { db } = database;
    await expect
      .poll(
        async () =>
          (await db.selectFrom('jobs').select('status').where('status', 'in', ['queued', 'running']).execute()).length,
      )
      .toBe(0);
    await Promise.all(workers.map((worker) => worker.stop()));
    expect(claimedBy).toEqual(new Set(workers.map((worker) => worker.owner)));
    for (const { org, job } of made) {
      expect(await changesPerUser(db, org.id, job.id)).toEqual({ events: 300, users: 300, max_version: '2' });
    }
  });
});
