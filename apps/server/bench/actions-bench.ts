import { request } from 'node:http';
import { usersPath } from '@users-admin/contract';
import { jobDocumentSchema } from '@users-admin/contract/user-actions';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../src/db/database.ts';
import { startJobWorker } from '../src/jobs/job-worker.ts';
import { createInvitations } from '../src/repositories/invitations-repository.ts';
import type { Run } from './bench-http.ts';

interface Answer {
  status: number;
  body: string;
  etag: string;
  location: string;
  ms: number;
}

/** A JSON:API call with node:http, timed to its last byte. */
function call(url: string, method: string, cookie: string, body?: object, ifMatch?: string): Promise<Answer> {
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {
    cookie,
    ...(payload ? { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(payload) } : {}),
    ...(ifMatch ? { 'if-match': ifMatch } : {}),
  };
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: text,
          etag: String(response.headers.etag ?? ''),
          location: String(response.headers.location ?? ''),
          ms: performance.now() - started,
        }),
      );
    })
      .on('error', reject)
      .end(payload);
  });
}

type JobSettings = { batchSize: number; leaseSeconds: number };

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ??
  Number.NaN;

/** `PATCH …/users/{id}` with If-Match, the user type of one user back and forth, `times` times: p50 and p99. */
async function measureSingleChanges(baseUrl: string, orgId: string, cookie: string, userIds: string[], times = 300) {
  const etags = new Map<string, string>();
  const admin = new Map<string, boolean>();
  for (const id of userIds) {
    const read = await call(`${baseUrl}${usersPath(orgId)}/${id}`, 'GET', cookie);
    etags.set(id, read.etag);
    admin.set(
      id,
      (JSON.parse(read.body) as { data: { attributes: { is_system_admin: boolean } } }).data.attributes.is_system_admin,
    );
  }
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const id = userIds[i % userIds.length] as string;
    const next = !admin.get(id);
    const body = { data: { type: 'users', id, attributes: { is_system_admin: next } } };
    const answer = await call(`${baseUrl}${usersPath(orgId)}/${id}`, 'PATCH', cookie, body, etags.get(id));
    if (answer.status !== 200) throw new Error(`PATCH answered ${answer.status}: ${answer.body}`);
    etags.set(id, answer.etag);
    admin.set(id, next);
    durations.push(answer.ms);
  }
  return { p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

/**
 * The user type of every inactive user (a tenth of the organisation) given the other way, as a job,
 * timed from the call to its end; this process's heap and RSS sampled meanwhile. Each run flips them
 * back, so that it can run again on the same data.
 */
async function measureJob(
  baseUrl: string,
  orgId: string,
  cookie: string,
  db: Db,
  jobs: { batchSize: number; leaseSeconds: number },
) {
  const count = async (admins: boolean) => {
    const url = `${baseUrl}${usersPath(orgId)}?filter[status]=inactive&filter[is_system_admin]=${admins}&page[size]=1`;
    return (JSON.parse((await call(url, 'GET', cookie)).body) as { meta: { total_count: number } }).meta.total_count;
  };
  const admins = (await count(true)) > (await count(false));
  const filter = `filter[status]=inactive&filter[is_system_admin]=${admins}`;
  const log = { info() {}, error: console.error } as unknown as FastifyBaseLogger;
  const invitations = createInvitations({ publicUrl: baseUrl, invitationTtlSeconds: 60, smtpUrl: undefined }, log);
  const worker = startJobWorker(db, { ...jobs, invitations, log });
  const before = process.memoryUsage();
  let peak = { heap: before.heapUsed, rss: before.rss };
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = { heap: Math.max(peak.heap, now.heapUsed), rss: Math.max(peak.rss, now.rss) };
  }, 100);
  try {
    const started = performance.now();
    const body = {
      data: { type: 'bulk-actions', attributes: { action: 'set_user_type', is_system_admin: !admins, filter } },
    };
    const posted = await call(`${baseUrl}${usersPath(orgId)}/bulk`, 'POST', cookie, body);
    if (posted.status !== 202) throw new Error(`bulk answered ${posted.status}: ${posted.body}`);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const job = jobDocumentSchema.parse(JSON.parse((await call(`${baseUrl}${posted.location}`, 'GET', cookie)).body));
      const { status, total, processed, done } = job.data.attributes;
      if (status === 'queued' || status === 'running') continue;
      if (status !== 'done') throw new Error(`job ${status}`);
      return {
        users: total,
        done,
        processed,
        seconds: (performance.now() - started) / 1000,
        heapGrowthMegabytes: (peak.heap - before.heapUsed) / 1e6,
        rssGrowthMegabytes: (peak.rss - before.rss) / 1e6,
      };
    }
  } finally {
    clearInterval(sampler);
    await worker.stop();
  }
}

/** Budgets of actions on users on a 2-core machine (PostgreSQL; the heap's on both engines). */
const BUDGET = { singleChangeP99: 20, jobSeconds: 30, jobHeapGrowthMegabytes: 100 } as const;
const ms = (value: number) => value.toFixed(1);

/** Actions on users: single-user changes, then a job over a tenth of the organisation. */
async function measureActions(baseUrl: string, orgId: string, cookie: string, db: Db, jobs: JobSettings) {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .where('is_external', '=', false)
    .where('is_system_admin', '=', false)
    .orderBy('id')
    .limit(20)
    .execute();
  const singleChange = await measureSingleChanges(
    baseUrl,
    orgId,
    cookie,
    rows.map((row) => row.id),
  );
  const job = await measureJob(baseUrl, orgId, cookie, db, jobs);
  return { singleChange, job };
}

/** A single-user change's p99, and a job over a tenth of the users: its time and this process's memory. */
export async function benchActions(
  { engine, cookie, check }: Run,
  baseUrl: string,
  jobs: JobSettings,
  db: Db,
  orgId: string,
) {
  const actions = await measureActions(baseUrl, orgId, cookie, db, jobs);
  const { singleChange, job } = actions;
  console.log(`  ${engine} single-user change: p50 ${ms(singleChange.p50)}  p99 ${ms(singleChange.p99)}`);
  console.log(
    `  ${engine} job over ${job.users.toLocaleString('en')} users: ${job.seconds.toFixed(1)} s, heap +${job.heapGrowthMegabytes.toFixed(0)} MB, RSS +${job.rssGrowthMegabytes.toFixed(0)} MB at most`,
  );
  check(job.processed === job.users && job.done === job.users, `job changed ${job.done} of ${job.users}`);
  const heap = job.heapGrowthMegabytes;
  check(heap <= BUDGET.jobHeapGrowthMegabytes, `job heap +${heap.toFixed(0)} MB > ${BUDGET.jobHeapGrowthMegabytes}`);
  if (engine === 'postgres') {
    check(singleChange.p99 <= BUDGET.singleChangeP99, `single-user change p99 ${ms(singleChange.p99)} ms > 20`);
    check(job.seconds <= BUDGET.jobSeconds, `job ${job.seconds.toFixed(1)} s > 30`);
  }
  return actions;
}
