import { errorDocumentSchema, usersPath } from '@users-admin/contract';
import { jobPath } from '@users-admin/contract/user-actions';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOrg, apiCaller, expectExactCounts, memberOf } from './support/actions-org.ts';
import { changesPerUser, crowdOrg, followJob, postJob, readJob } from './support/jobs.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import type { CookieJar } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const finished = (job: { status: string }) => !['queued', 'running'].includes(job.status);

describe('jobs: an action over every matching user', () => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;
  let crowd: { id: string; slug: string; name: string };
  let admin: CookieJar;

  beforeAll(async () => {
    server = await startTestServer({ JOB_BATCH_SIZE: '20' });
    call = apiCaller(server.baseUrl);
    crowd = await crowdOrg(server.database.db, 'crowd', 2000);
    admin = await signedInAdminOf(server.database.db, server.baseUrl, crowd);
  });
  afterAll(() => server.close());

  it('changes every matching user batch by batch: 202, Location, progress, exact counts', async () => {
    const { db } = server.database;
    // Paging and sort are ignored; the search and the filter select persons 1000–1999 and the active.
    const filter = 'filter[query]=person1&filter[status]=active&sort=name&page[number]=3&page[size]=100';
    const { location, job } = await postJob(call, admin, crowd.id, {
      action: 'set_user_type',
      is_system_admin: true,
      filter,
    });
    expect(location).toBe(jobPath(crowd.id, job.id));
    expect(job.attributes).toMatchObject({ status: 'queued', total: 1111, processed: 0, done: 0, skipped: {} });
    const seen = await followJob(call, admin, location, finished);
    const processed = seen.map((state) => state.processed);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    expect(seen.some((state) => state.status === 'running' && state.processed > 0)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'done', total: 1111, processed: 1111, done: 1111, skipped: {} });
    expect(seen.at(-1)?.finished_at).not.toBeNull();
    await expectExactCounts(db, call, admin, crowd.id);
    expect(await changesPerUser(db, crowd.id, job.id)).toEqual({ events: 1111, users: 1111, max_version: '2' });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from users
      where org_id = ${crowd.id} and is_system_admin and email like 'person1%'`.execute(db);
    expect(rows[0]?.n).toBe(1111);
  });

  it('cancels a running job after its batch in flight: it changes nobody afterwards', async () => {
    const { location } = await postJob(call, admin, crowd.id, { action: 'disable', filter: '' });
    await followJob(call, admin, location, (job) => job.processed > 0 || finished(job));
    const response = await call(admin, 'DELETE', location);
    expect(response.status).toBe(200);
    const cancelled = await readJob(call, admin, location);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.processed).toBeGreaterThan(0);
    expect(cancelled.processed).toBeLessThan(cancelled.total);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await readJob(call, admin, location)).toEqual(cancelled);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from users
      where org_id = ${crowd.id} and status = 'disabled'`.execute(server.database.db);
    expect(rows[0]?.n).toBe(cancelled.done);
    // A second cancel, or one of a finished job, leaves it as it is.
    expect((await call(admin, 'DELETE', location)).status).toBe(200);
    expect(await readJob(call, admin, location)).toEqual(cancelled);
    await expectExactCounts(server.database.db, call, admin, crowd.id);
  });

  it('skips users by reason, and gives every result as CSV', async () => {
    const { db } = server.database;
    const org = await actionsOrg(db, 'skips');
    const jar = await signedInAdminOf(db, server.baseUrl, { id: org.id, slug: 'skips', name: 'Skips' });
    const { location, job } = await postJob(call, jar, org.id, { action: 'disable', filter: 'filter[query]=' });
    const [last] = (await followJob(call, jar, location, finished)).slice(-1);
    expect(last).toMatchObject({ status: 'done', total: 9, processed: 9, done: 4 });
    expect(last?.skipped).toEqual({ self: 1, unchanged: 2, third_party: 2 });
    await expectExactCounts(db, call, jar, org.id);

    const response = await call(jar, 'GET', `${location}/results`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain(`job-${job.id}-results.csv`);
    const rows: Record<string, string>[] = parse((await response.text()).replace(/^\uFEFF/, ''), { columns: true });
    expect(rows).toHaveLength(9);
    expect(rows.map((row) => row.user_id)).toEqual(rows.map((row) => row.user_id).sort());
    expect(rows.find((row) => row.user_id === org.users.external)).toEqual({
      user_id: org.users.external,
      name: 'external',
      email: 'external@skips.example',
      result: 'skipped',
      reason: 'third_party',
      detail: 'Third-party users are managed by their identity provider: you cannot disable them here.',
    });
    expect(rows.find((row) => row.user_id === org.users.active)).toMatchObject({ result: 'done', reason: '' });
  });

  it('answers 404 to another organisation, 403 to others, 401 without a session', async () => {
    const { db } = server.database;
    const { location, job } = await postJob(call, admin, crowd.id, {
      action: 'set_user_type',
      is_system_admin: false,
      filter: 'filter[query]=nobody matches this',
    });
    await followJob(call, admin, location, finished);
    const other = await crowdOrg(db, 'other', 1);
    const otherAdmin = await signedInAdminOf(db, server.baseUrl, other);
    for (const path of [jobPath(other.id, job.id), `${jobPath(other.id, job.id)}/results`, jobPath(crowd.id, 'x')]) {
      const jar = path.includes(other.id) ? otherAdmin : admin;
      expect((await call(jar, 'GET', path)).status, path).toBe(404);
    }
    expect((await call(otherAdmin, 'DELETE', jobPath(other.id, job.id))).status).toBe(404);
    expect((await readJob(call, admin, location)).status).toBe('done');
    expect((await call(otherAdmin, 'GET', location)).status).toBe(403);
    expect((await call(otherAdmin, 'DELETE', location)).status).toBe(403);
    expect((await call(otherAdmin, 'GET', `${location}/results`)).status).toBe(403);
    const member = await memberOf(db, crowd.id, 'member@crowd.example', false);
    expect((await call(await member.signIn(server.baseUrl), 'GET', location)).status).toBe(403);
    expect((await call(undefined, 'GET', location)).status).toBe(401);
    const made = postJob.bind(null, call, otherAdmin, crowd.id, { action: 'disable', filter: '' });
    await expect(made()).rejects.toThrow(/403/);
  });

  it('refuses a filter that is not the list query string with a 400 in words', async () => {
    const bulk = (attributes: object) =>
      call(admin, 'POST', `${usersPath(crowd.id)}/bulk`, { body: { data: { type: 'bulk-actions', attributes } } });
    for (const [attributes, code] of [
      [{ action: 'disable', filter: 'filter[colour]=red' }, 'invalid_filter'],
      [{ action: 'disable', filter: 'filter[status]=gone' }, 'invalid_filter'],
      [{ action: 'disable', filter: '', ids: ['x'] }, 'invalid_parameter'],
    ] as const) {
      const response = await bulk(attributes);
      expect(response.status, JSON.stringify(attributes)).toBe(400);
      const [error] = errorDocumentSchema.parse(await response.json()).errors;
      expect(error?.code).toBe(code);
      expect(error?.detail).toMatch(/\w+ \w+/);
    }
  });
});
