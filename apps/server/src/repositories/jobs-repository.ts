import { toUserListParams, toUserListQuery, type UserListQuery, userListQuerySchema } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { JobRow } from '../db/schema.ts';
import { isUuid, uuidv7 } from '../lib/ids.ts';
import type { ActionAsked } from './user-action-rules.ts';
import type { UsersRepository } from './users-repository.ts';

/** A job's filter as the list's query (paging and sort are the page's, not the job's), or why it is not one. */
export function jobQuery(filter: string): { query: UserListQuery } | { error: string } {
  const params = new URLSearchParams(filter);
  for (const key of ['sort', 'page[size]', 'page[number]', 'page[total]']) params.delete(key);
  const parsed = userListQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) return { error: parsed.error.issues.map((issue) => issue.message).join('; ') };
  return { query: toUserListQuery(parsed.data) };
}

export type NewJob = ActionAsked & { orgId: string; actorId: string; requestId: string; query: UserListQuery };

/** What the API does with an organisation's jobs: make, read, cancel, and read their results. */
export function createJobsRepository(db: Db, users: UsersRepository) {
  const find = (orgId: string, id: string): Promise<JobRow | undefined> =>
    isUuid(id)
      ? db.selectFrom('jobs').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst()
      : Promise.resolve(undefined);

  return {
    find,

    /** A queued job over the users matching now: `total` is their count. */
    async create(job: NewJob): Promise<JobRow> {
      const { count } = await users.countUsers(job.orgId, { ...job.query, exactTotal: true });
      return db
        .insertInto('jobs')
        .values({
          org_id: job.orgId,
          id: uuidv7(),
          action: job.action,
          is_system_admin: job.isSystemAdmin ?? null,
          filter: toUserListParams(job.query).toString(),
          actor_id: job.actorId,
          request_id: job.requestId,
          total: count,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Cancels an unfinished job, after the batch in flight (which holds its row); a finished one stays as it is. */
    async cancel(orgId: string, id: string): Promise<JobRow | undefined> {
      if (!isUuid(id)) return undefined;
      await db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: sql<Date>`now()`, lease_owner: null, lease_expires_at: null })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return find(orgId, id);
    },

    /** A job's results in the order it walked the users, read in batches: flat memory however many. */
    async *results(orgId: string, jobId: string, batchSize = 2000) {
      let after: string | undefined;
      for (;;) {
        const rows = await db
          .selectFrom('job_results')
          .select(['user_id', 'name', 'email', 'result', 'reason'])
          .where('org_id', '=', orgId)
          .where('job_id', '=', jobId)
          .$if(after !== undefined, (select) => select.where('user_id', '>', after as string))
          .orderBy('user_id')
          .limit(batchSize)
          .execute();
        yield* rows;
        if (rows.length < batchSize) return;
        after = rows.at(-1)?.user_id;
      }
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
