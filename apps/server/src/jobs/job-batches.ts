import type { SkipReason, UserActionResult } from '@users-admin/contract/user-actions';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Database, JobRow } from '../db/schema.ts';
import type { Invitations, SentInvitation } from '../repositories/invitations-repository.ts';
import { jobQuery } from '../repositories/jobs-repository.ts';
import { lastSignInRanges, matchingUsers } from '../repositories/user-conditions.ts';

/** Claims since the last committed batch after which a job stops as failed, not tried again. */
const MAX_ATTEMPTS = 5;

export type JobKey = Pick<JobRow, 'org_id' | 'id'>;
export type BatchStep = 'more' | 'finished' | 'lost';

/** How a batch acts (an `invite` job's writes invitations), and what follows its commit (its mail leaves). */
export type BatchOptions = Config['jobs'] & { invitations: Pick<Invitations, 'act' | 'committed'> };

const keyOf = (job: JobKey) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
  eb.and([eb('org_id', '=', job.org_id), eb('id', '=', job.id)]);
const RELEASED = { lease_owner: null, lease_expires_at: null };
const leaseUntil = (seconds: number) => sql<Date>`now() + ${seconds} * interval '1 second'`;
const claimable = (eb: ExpressionBuilder<Database, 'jobs'>) =>
  eb.and([
    eb('status', 'in', ['queued', 'running']),
    eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', sql<Date>`now()`)]),
  ]);

/**
 * Takes the oldest job no live instance holds, under a lease, `skip locked`: instances claiming at once
 * never wait for nor take the same one. Only the finding names no organisation (README, Scale-out).
 */
export async function claimJob(db: Db, owner: string, leaseSeconds: number): Promise<JobRow | undefined> {
  const { rows: candidates } = await sql<JobKey>`select "org_id", "id" from "jobs"
    where "status" in ('queued', 'running') and ("lease_expires_at" is null or "lease_expires_at" < now())
    order by "created_at" limit 10`.execute(db);
  for (const candidate of candidates) {
    const claimed = await db
      .updateTable('jobs')
      .set({ status: 'running', lease_owner: owner, lease_expires_at: leaseUntil(leaseSeconds) })
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where(keyOf(candidate))
      .where('id', 'in', (eb) =>
        eb.selectFrom('jobs').select('id').where(keyOf(candidate)).where(claimable).forUpdate().skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
    if (!claimed) continue;
    if (claimed.attempts <= MAX_ATTEMPTS) return claimed;
    // Claimed once too often since its last batch: it stops, as failed.
    const failed = { status: 'failed' as const, finished_at: sql<Date>`now()`, ...RELEASED };
    return db.updateTable('jobs').set(failed).where(keyOf(candidate)).returningAll().executeTakeFirst();
  }
  return undefined;
}

/** Gives a job back at a clean stop, so that another instance takes it at once. */
export async function releaseJob(db: Db, job: JobKey, owner: string): Promise<void> {
  await db.updateTable('jobs').set(RELEASED).where(keyOf(job)).where('lease_owner', '=', owner).execute();
}

/** The next users of a job: matching its filter, there when it was made, after its last batch, by id. */
function nextUsers(tx: Db, job: JobRow, batchSize: number) {
  const parsed = jobQuery(job.filter);
  if ('error' in parsed) throw new Error(`job ${job.id}: ${parsed.error}`);
  const { query } = parsed;
  // Last sign-in is counted back from when the job was made, not from each batch.
  const ranges = query.lastSignIn ? lastSignInRanges(query.lastSignIn, job.created_at.getTime()) : [];
  return matchingUsers(tx, job.org_id, query, false, ranges)
    .where('created_at', '<=', job.created_at)
    .$if(job.after_id !== null, (select) => select.where('id', '>', job.after_id as string))
    .select(['id', 'name', 'email'])
    .orderBy('id')
    .limit(batchSize)
    .execute();
}

/**
 * One batch in one transaction, under the job's row lock (a cancel waits, no second instance runs it):
 * the action, its results, the cursor and counts. A crash loses the batch whole; the next starts after.
 */
export async function runBatch(db: Db, key: JobKey, owner: string, options: BatchOptions): Promise<BatchStep> {
  let sent: SentInvitation[] = [];
  const step = await db.transaction().execute(async (tx): Promise<BatchStep> => {
    const job = await tx.selectFrom('jobs').selectAll().where(keyOf(key)).forUpdate().executeTakeFirst();
    // Cancelled, or taken over after this instance's lease ran out.
    if (job?.status !== 'running' || job.lease_owner !== owner) return 'lost';
    const users = await nextUsers(tx, job, options.batchSize);
    const { results, invitations } = await options.invitations.act(tx, {
      orgId: job.org_id,
      actor: { id: job.actor_id },
      action: job.action,
      isSystemAdmin: job.is_system_admin ?? undefined,
      ids: users.map((user) => user.id),
      requestId: job.request_id,
      jobId: job.id,
    });
    sent = invitations;
    const skipped: Partial<Record<SkipReason, number>> = { ...job.skipped };
    for (const { reason } of results) if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
    const byId = new Map(users.map((user) => [user.id, user]));
    const row = ({ id, result, reason }: UserActionResult) => {
      const { name = '', email = '' } = byId.get(id) ?? {};
      return { org_id: job.org_id, job_id: job.id, user_id: id, name, email, result, reason: reason ?? null };
    };
    if (results.length > 0) await tx.insertInto('job_results').values(results.map(row)).execute();
    const finished = users.length < options.batchSize;
    const done = results.filter((result) => result.result === 'done').length;
    await tx
      .updateTable('jobs')
      .set((eb) => ({
        after_id: users.at(-1)?.id ?? job.after_id,
        processed: eb('processed', '+', results.length),
        done: eb('done', '+', done),
        skipped: JSON.stringify(skipped),
        attempts: 0,
        lease_expires_at: finished ? null : leaseUntil(options.leaseSeconds),
        ...(finished ? { status: 'done' as const, finished_at: sql<Date>`now()`, lease_owner: null } : {}),
      }))
      .where(keyOf(job))
      .execute();
    return finished ? 'finished' : 'more';
  });
  options.invitations.committed(sent);
  return step;
}
