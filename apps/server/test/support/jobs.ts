import { usersPath } from '@users-admin/contract';
import { type JobDocument, jobDocumentSchema } from '@users-admin/contract/user-actions';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { insertUsers } from '../../src/db/seed.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import type { apiCaller } from './actions-org.ts';
import type { CookieJar } from './sign-in.ts';
import { userRow } from './user-rows.ts';

type Call = ReturnType<typeof apiCaller>;
export type Job = JobDocument['data']['attributes'];

/** A new organisation of `count` active users who are not System Admins, `person<n>@<slug>.example`. */
export async function crowdOrg(db: Db, slug: string, count: number) {
  const id = uuidv7();
  await db.insertInto('organizations').values({ id, name: slug, slug }).execute();
  const rows = Array.from({ length: count }, (_, n) => userRow(id, `Person ${n}`, `person${n}@${slug}.example`));
  for (let i = 0; i < rows.length; i += 1000) await insertUsers(db, rows.slice(i, i + 1000));
  return { id, slug, name: slug };
}

/** `POST …/users/bulk` with a filter: 202 and the job's address. */
export async function postJob(call: Call, jar: CookieJar, orgId: string, attributes: object) {
  const response = await call(jar, 'POST', `${usersPath(orgId)}/bulk`, {
    body: { data: { type: 'bulk-actions', attributes } },
  });
  expect(response.status, await response.clone().text()).toBe(202);
  const location = response.headers.get('location') ?? '';
  return { location, job: jobDocumentSchema.parse(await response.json()).data };
}

export async function readJob(call: Call, jar: CookieJar, location: string): Promise<Job> {
  const response = await call(jar, 'GET', location);
  expect(response.status).toBe(200);
  return jobDocumentSchema.parse(await response.json()).data.attributes;
}

/** Reads the job until `until` holds (within `timeoutMs`): every state seen, the last one last. */
export async function followJob(
  call: Call,
  jar: CookieJar,
  location: string,
  until: (job: Job) => boolean,
  timeoutMs = 60_000,
) {
  const seen: Job[] = [];
  const started = performance.now();
  for (;;) {
    const job = await readJob(call, jar, location);
    seen.push(job);
    if (until(job)) return seen;
    if (performance.now() - started > timeoutMs) throw new Error(`job still ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the database says each user went through: audit events of the job per user, and versions. */
export async function changesPerUser(db: Db, orgId: string, jobId: string) {
  const { rows } = await sql<{ events: number; users: number; max_version: string }>`
    select count(*)::int as events, count(distinct user_id)::int as users,
           (select max(version) from users where org_id = ${orgId})::text as max_version
    from audit_events where org_id = ${orgId} and job_id = ${jobId}`.execute(db);
  return rows[0];
}
