import { errorDocumentSchema, usersPath } from '@users-admin/contract';
import { auditEventListDocumentSchema, auditEventsPath } from '@users-admin/contract/user-actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { actionsOrg, apiCaller } from './support/actions-org.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('GET …/audit-events', () => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;
  let org: Awaited<ReturnType<typeof actionsOrg>>;
  let admin: CookieJar;
  let adminId: string;
  let start: string;

  const list = async (query = '', jar = admin) => {
    const response = await call(jar, 'GET', `${auditEventsPath(org.id)}${query}`);
    expect(response.status).toBe(200);
    return auditEventListDocumentSchema.parse(await response.json());
  };
  const bulk = (attributes: object, requestId?: string) =>
    call(admin, 'POST', `${usersPath(org.id)}/bulk`, {
      body: { data: { type: 'bulk-actions', attributes } },
      headers: requestId ? { 'x-request-id': requestId } : {},
    });

  beforeAll(async () => {
    server = await startTestServer();
    call = apiCaller(server.baseUrl);
    const { db } = server.database;
    org = await actionsOrg(db, 'audited');
    admin = await signedInAdminOf(db, server.baseUrl, { id: org.id, slug: 'audited', name: 'Audited' });
    const row = await db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', org.id)
      .where('email', '=', 'admin@audited.example')
      .executeTakeFirstOrThrow();
    adminId = row.id;
    start = new Date(Date.now() - 1000).toISOString();
    const { users } = org;
    expect(
      (await bulk({ action: 'set_user_type', is_system_admin: true, ids: [users.active] }, 'req-promote')).status,
    ).toBe(200);
    expect((await bulk({ action: 'disable', ids: [users.active2, users.external] }, 'req-disable')).status).toBe(200);
    const removal = await call(admin, 'DELETE', `${usersPath(org.id)}/${users.inactive}`, {
      headers: { 'if-match': '"1"' },
    });
    expect(removal.status).toBe(204);
  });
  afterAll(() => server.close());

  it('records each change, with who, whom, before, after and the request, newest first', async () => {
    const document = await list();
    expect(document.data.map((event) => event.attributes.action)).toEqual(['remove', 'disable', 'set_user_type']);
    const [removal, disable, promote] = document.data;
    expect(promote?.attributes).toMatchObject({
      actor_id: adminId,
      actor_name: 'Audited Admin',
      user_id: org.users.active,
      user_name: 'active',
      before: { is_system_admin: false },
      after: { is_system_admin: true },
      request_id: 'req-promote',
      job_id: null,
    });
    // The third-party user was skipped: no event.
    expect(disable?.attributes).toMatchObject({
      user_id: org.users.active2,
      before: { status: 'active' },
      after: { status: 'disabled' },
    });
    expect(removal?.attributes).toMatchObject({ user_id: org.users.inactive, user_name: 'inactive', after: {} });
    expect(Date.parse(removal?.attributes.created_at ?? '')).toBeGreaterThanOrEqual(Date.parse(start));
  });

  it('filters by user, actor, action and time', async () => {
    expect((await list(`?filter[user_id]=${org.users.active2}`)).data).toHaveLength(1);
    expect((await list(`?filter[actor_id]=${adminId}`)).data).toHaveLength(3);
    expect((await list(`?filter[actor_id]=${org.users.active}`)).data).toHaveLength(0);
    expect((await list('?filter[action]=disable')).data).toHaveLength(1);
    expect((await list('?filter[action]=invite')).data).toHaveLength(0);
    expect((await list(`?filter[since]=${start}`)).data).toHaveLength(3);
    expect((await list(`?filter[since]=${new Date(Date.now() + 60_000).toISOString()}`)).data).toHaveLength(0);
    // An id that is not a UUID names no user.
    expect((await list('?filter[user_id]=nobody')).data).toHaveLength(0);
  });

  it('pages newest first with next and prev links', async () => {
    const first = await list('?page[size]=2&filter[since]=' + encodeURIComponent(start));
    expect(first.data).toHaveLength(2);
    expect(first.links.prev).toBeUndefined();
    expect(first.links.next).toContain('page%5Bnumber%5D=2');
    expect(first.links.next).toContain('filter%5Bsince%5D=');
    const second = await list(first.links.next?.slice(auditEventsPath(org.id).length) ?? '');
    expect(second.data.map((event) => event.attributes.action)).toEqual(['set_user_type']);
    expect(second.links.next).toBeUndefined();
    expect(second.links.prev).toBeDefined();
  });

  it('refuses parameters it does not take: 400 in words', async () => {
    for (const query of [
      '?page[size]=0',
      '?page[size]=101',
      '?filter[action]=explode',
      '?filter[since]=yesterday',
      '?sort=name',
    ]) {
      const response = await call(admin, 'GET', `${auditEventsPath(org.id)}${query}`);
      expect(response.status, query).toBe(400);
      expect(errorDocumentSchema.parse(await response.json()).errors[0]?.detail).toBeTruthy();
    }
  });

  it('shows an organisation its own events only, to its System Admins only', async () => {
    const acme = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    expect((await call(acme, 'GET', auditEventsPath(org.id))).status).toBe(403);
    const acmeEvents = await call(acme, 'GET', auditEventsPath(DEMO_ORGS.acme.id));
    expect(auditEventListDocumentSchema.parse(await acmeEvents.json()).data).toEqual([]);
    const user = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    expect((await call(user, 'GET', auditEventsPath(DEMO_ORGS.acme.id))).status).toBe(403);
    expect((await call(undefined, 'GET', auditEventsPath(org.id))).status).toBe(401);
  });

  it('cannot be changed through the API', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const response = await call(admin, method, auditEventsPath(org.id), { body: { data: {} } });
      expect(response.status, method).toBe(404);
    }
    expect((await list()).data).toHaveLength(3);
  });
});
