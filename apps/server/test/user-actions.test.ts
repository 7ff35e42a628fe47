import { errorDocumentSchema, userDocumentSchema, usersPath } from '@users-admin/contract';
import { bulkResultDocumentSchema } from '@users-admin/contract/user-actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { actionsOrg, apiCaller, expectExactCounts, memberOf } from './support/actions-org.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('actions on users: PATCH, DELETE and bulk by ids', () => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;
  let org: Awaited<ReturnType<typeof actionsOrg>>;
  let admin: CookieJar;
  let adminId: string;
  let bea: Awaited<ReturnType<typeof memberOf>>;
  let ulla: Awaited<ReturnType<typeof memberOf>>;

  const userPath = (id: string) => `${usersPath(org.id)}/${id}`;
  const read = async (id: string, jar = admin) => {
    const response = await call(jar, 'GET', userPath(id));
    expect(response.status).toBe(200);
    return { etag: response.headers.get('etag') ?? '', user: userDocumentSchema.parse(await response.json()).data };
  };
  const patch = (id: string, attributes: object, ifMatch?: string, jar = admin) =>
    call(jar, 'PATCH', userPath(id), {
      body: { data: { type: 'users', id, attributes } },
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    });
  const remove = (id: string, ifMatch?: string, jar = admin) =>
    call(jar, 'DELETE', userPath(id), { headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
  const bulk = (attributes: object, jar = admin, orgId = org.id) =>
    call(jar, 'POST', `${usersPath(orgId)}/bulk`, { body: { data: { type: 'bulk-actions', attributes } } });
  const error = async (response: Response, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/vnd.api+json');
    const [first] = errorDocumentSchema.parse(await response.json()).errors;
    expect(first?.detail).toMatch(/\w+ \w+/);
    return first;
  };

  beforeAll(async () => {
    server = await startTestServer();
    call = apiCaller(server.baseUrl);
    const { db } = server.database;
    org = await actionsOrg(db, 'acts');
    admin = await signedInAdminOf(db, server.baseUrl, { id: org.id, slug: 'acts', name: 'Acts' });
    adminId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('org_id', '=', org.id)
        .where('email', '=', 'admin@acts.example')
        .executeTakeFirstOrThrow()
    ).id;
    bea = await memberOf(db, org.id, 'bea@acts.example', true);
    ulla = await memberOf(db, org.id, 'ulla@acts.example', false);
  });
  afterAll(() => server.close());

  it('answers one user with its version as ETag', async () => {
    const { etag, user } = await read(org.users.active as string);
    expect(etag).toBe('"1"');
    expect(user.attributes.status).toBe('active');
  });

  it('changes the user type with If-Match: a new ETag, exact counts', async () => {
    const id = org.users.active as string;
    const { etag } = await read(id);
    const response = await patch(id, { is_system_admin: true }, etag);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(userDocumentSchema.parse(await response.json()).data.attributes.is_system_admin).toBe(true);
    expect((await read(id)).etag).toBe('"2"');
    await expectExactCounts(server.database.db, call, admin, org.id);
    const back = await patch(id, { is_system_admin: false }, '"2"');
    expect(back.status).toBe(200);
    expect(back.headers.get('etag')).toBe('"3"');
  });

  it('requires If-Match (428) and refuses a stale one (412), changing nothing', async () => {
    const id = org.users.active2 as string;
    expect((await error(await patch(id, { status: 'disabled' }), 428))?.code).toBe('precondition_required');
    expect((await error(await remove(id), 428))?.code).toBe('precondition_required');
    expect((await error(await patch(id, { status: 'disabled' }, '"7"'), 412))?.code).toBe('precondition_failed');
    expect((await error(await remove(id, 'W/"1"'), 412))?.code).toBe('precondition_failed');
    const { etag, user } = await read(id);
    expect([etag, user.attributes.status]).toEqual(['"1"', 'active']);
    // Any version: `*`.
    expect((await patch(id, { status: 'disabled' }, '*')).status).toBe(200);
    expect((await patch(id, { status: 'active' }, '"2", "3"')).status).toBe(200);
  });

  it('validates every parameter: 400 in words', async () => {
    const id = org.users.active2 as string;
    for (const attributes of [{}, { status: 'pending' }, { is_system_admin: 'yes' }, { name: 'x' }]) {
      expect((await error(await patch(id, attributes, '*'), 400))?.code).toBe('invalid_parameter');
    }
    const wrongType = await call(admin, 'PATCH', userPath(id), {
      body: { data: { type: 'people', attributes: { status: 'disabled' } } },
      headers: { 'if-match': '*' },
    });
    await error(wrongType, 400);
    const notJson = await call(admin, 'PATCH', userPath(id), {
      headers: { 'if-match': '*', 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    const otherId = await call(admin, 'PATCH', userPath(id), {
      body: { data: { type: 'users', id: org.users.inactive, attributes: { status: 'disabled' } } },
      headers: { 'if-match': '*' },
    });
    expect((await error(otherId, 409))?.code).toBe('id_mismatch');
    await error(
      await call(admin, 'PATCH', `/apis/accounts/api/v3/orgs/not-a-uuid/users/${id}`, {
        body: {},
        headers: { 'if-match': '*' },
      }),
      400,
    );
  });

  it('answers hostile ids and bodies with a clear 4xx or a skip, never a 5xx', async () => {
    const hostile = [
      "' or 1=1 --",
      '%',
      '\u0000',
      'é'.repeat(100),
      '../users',
      '<script>',
      '00000000-0000-0000-0000-00000000000g',
    ];
    for (const id of hostile) {
      const response = await patch(encodeURIComponent(id), { status: 'disabled' }, '"1"');
      expect(response.status, id).toBeLessThan(500);
      expect(errorDocumentSchema.parse(await response.json()).errors[0]?.detail).toBeTruthy();
    }
    const response = await bulk({ action: 'remove', ids: hostile });
    const { attributes } = bulkResultDocumentSchema.parse(await response.json()).data;
    expect(attributes.results.every((r) => r.reason === 'not_found')).toBe(true);
    for (const ifMatch of ['"1', '"-1"', `"${'9'.repeat(30)}"`, '"1" "2"', 'W/"1"']) {
      expect((await patch(org.users.active2 as string, { status: 'disabled' }, ifMatch)).status, ifMatch).toBe(412);
    }
  });

  it('answers 404 for a user the organisation does not have', async () => {
    for (const id of ['01900000-0000-7000-8000-00000000dead', 'not-a-uuid']) {
      expect((await error(await patch(id, { status: 'disabled' }, '"1"'), 404))?.code).toBe('not_found');
      expect((await error(await remove(id, '"1"'), 404))?.code).toBe('not_found');
    }
  });

  it('refuses with 409 and the reason as code: self, third party, not disabled, unchanged', async () => {
    const cases: [string, object, string][] = [
      [adminId, { is_system_admin: false }, 'self'],
      [adminId, { status: 'disabled' }, 'self'],
      [org.users.external as string, { status: 'disabled' }, 'third_party'],
      [org.users.externalDisabled as string, { status: 'active' }, 'third_party'],
      [org.users.inactive as string, { status: 'active' }, 'not_disabled'],
      [org.users.pending as string, { status: 'active' }, 'not_disabled'],
      [org.users.disabled as string, { status: 'disabled' }, 'unchanged'],
      [org.users.inactive as string, { is_system_admin: false }, 'unchanged'],
    ];
    for (const [id, attributes, code] of cases) {
      const problem = await error(await patch(id, attributes, '*'), 409);
      expect(problem?.code, code).toBe(code);
    }
    expect((await error(await remove(adminId, '*'), 409))?.code).toBe('self');
    expect((await error(await remove(org.users.external as string, '*'), 409))?.code).toBe('third_party');
    // A refusal changes nothing, even a first attribute that was allowed.
    const both = await patch(org.users.inactive as string, { status: 'disabled', is_system_admin: false }, '*');
    expect((await error(both, 409))?.code).toBe('unchanged');
    expect((await read(org.users.inactive as string)).user.attributes.status).toBe('inactive');
  });

  it('disables and enables: a disabled user is signed out at once and cannot sign in', async () => {
    const jar = await ulla.signIn(server.baseUrl);
    expect((await call(jar, 'GET', '/apis/oidc/userinfo')).status).toBe(200);
    const disabled = await patch(ulla.id, { status: 'disabled' }, '"1"');
    expect(disabled.status).toBe(200);
    expect(userDocumentSchema.parse(await disabled.json()).data.attributes.status).toBe('disabled');
    expect((await call(jar, 'GET', '/apis/oidc/userinfo')).status).toBe(401);
    await expectExactCounts(server.database.db, call, admin, org.id);
    // Signing in again opens no session: without a cookie the lookup answers 400.
    const again = await signIn(server.baseUrl, ulla.email, 'secret');
    expect((await call(again.jar, 'GET', '/apis/oidc/userinfo')).status).toBe(400);
    const enabled = await patch(ulla.id, { status: 'active' }, '"2"');
    expect(userDocumentSchema.parse(await enabled.json()).data.attributes.status).toBe('active');
    await expectExactCounts(server.database.db, call, admin, org.id);
  });

  it('removes a user: 204, their sessions end, the account stays, counts stay exact', async () => {
    const { db } = server.database;
    const member = await memberOf(db, org.id, 'leaver@acts.example', true);
    const jar = await member.signIn(server.baseUrl);
    expect((await call(jar, 'GET', usersPath(org.id))).status).toBe(200);
    const response = await remove(member.id, '"1"');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await call(admin, 'GET', userPath(member.id))).status).toBe(404);
    expect((await call(jar, 'GET', usersPath(org.id))).status).toBe(401);
    const account = await db.selectFrom('accounts').select('id').where('email', '=', member.email).executeTakeFirst();
    expect(account).toBeDefined();
    await expectExactCounts(db, call, admin, org.id);
    expect((await error(await remove(member.id, '*'), 404))?.code).toBe('not_found');
  });

  it('applies a bulk action to users by id: one result per user, in the order asked', async () => {
    const { users } = org;
    const ids = [users.inactive, users.external, adminId, users.disabled, users.inactive, 'nobody'] as string[];
    const response = await bulk({ action: 'disable', ids });
    expect(response.status).toBe(200);
    const { attributes } = bulkResultDocumentSchema.parse(await response.json()).data;
    expect(attributes.results.map((r) => [r.id, r.result, r.reason])).toEqual([
      [users.inactive, 'done', undefined],
      [users.external, 'skipped', 'third_party'],
      [adminId, 'skipped', 'self'],
      [users.disabled, 'skipped', 'unchanged'],
      ['nobody', 'skipped', 'not_found'],
    ]);
    expect(attributes.results[1]?.detail).toMatch(/identity provider/);
    expect([attributes.action, attributes.done, attributes.skipped]).toEqual(['disable', 1, 4]);
    await expectExactCounts(server.database.db, call, admin, org.id);

    const enable = await bulk({ action: 'enable', ids: [users.inactive, users.pending] });
    const enabled = bulkResultDocumentSchema.parse(await enable.json()).data.attributes;
    expect(enabled.results.map((r) => r.reason)).toEqual([undefined, 'not_disabled']);

    const promote = await bulk({
      action: 'set_user_type',
      is_system_admin: true,
      ids: [users.pending, users.external],
    });
    expect(bulkResultDocumentSchema.parse(await promote.json()).data.attributes.done).toBe(2);
    const demote = await bulk({
      action: 'set_user_type',
      is_system_admin: false,
      ids: [users.pending, users.external],
    });
    expect(bulkResultDocumentSchema.parse(await demote.json()).data.attributes.done).toBe(2);
    await expectExactCounts(server.database.db, call, admin, org.id);
  });

  it('removes users in bulk and ends their sessions', async () => {
    const { db } = server.database;
    const leavers = await Promise.all(['l1', 'l2'].map((n) => memberOf(db, org.id, `${n}@acts.example`, false)));
    const jars = await Promise.all(leavers.map((l) => l.signIn(server.baseUrl)));
    const response = await bulk({ action: 'remove', ids: [...leavers.map((l) => l.id), org.users.external] });
    const { attributes } = bulkResultDocumentSchema.parse(await response.json()).data;
    expect([attributes.done, attributes.skipped]).toEqual([2, 1]);
    for (const jar of jars) expect((await call(jar, 'GET', '/apis/oidc/userinfo')).status).toBe(401);
    await expectExactCounts(db, call, admin, org.id);
  });

  it('refuses bulk bodies it does not take: 400 in words', async () => {
    const bodies = [
      { action: 'disable' },
      { action: 'disable', ids: [] },
      { action: 'disable', ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) },
      { action: 'set_user_type', ids: [bea.id] },
      { action: 'disable', is_system_admin: true, ids: [bea.id] },
      { action: 'explode', ids: [bea.id] },
      { action: 'disable', ids: [bea.id], filter: 'filter[status]=active' },
    ];
    for (const attributes of bodies) await error(await bulk(attributes), 400);
  });

  it('never lets the organisation lose its last active System Admin, even to two admins at once', async () => {
    const { db } = server.database;
    // An organisation of its own, whose only active System Admins are the twins.
    const twinsOrg = await actionsOrg(db, 'twins');
    const twins = await Promise.all(['t1', 't2'].map((n) => memberOf(db, twinsOrg.id, `${n}@twins.example`, true)));
    const demotion = {
      body: { data: { type: 'users', attributes: { is_system_admin: false } } },
      headers: { 'if-match': '*' },
    };
    const [one, two] = await Promise.all(twins.map((t) => t.signIn(server.baseUrl)));
    const [first, second] = await Promise.all([
      call(one, 'PATCH', `${usersPath(twinsOrg.id)}/${twins[1]?.id}`, demotion),
      call(two, 'PATCH', `${usersPath(twinsOrg.id)}/${twins[0]?.id}`, demotion),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    // The other was refused: by the rule (409), or, when its role was read after the first, as no admin (403).
    expect([403, 409]).toContain(statuses[1]);
    const refused = first.status === 200 ? second : first;
    if (refused.status === 409) expect((await error(refused, 409))?.code).toBe('last_system_admin');
    const admins = await db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', twinsOrg.id)
      .where('status', '=', 'active')
      .where('is_system_admin', '=', true)
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('publishes every call in the OpenAPI document', async () => {
    const document = (await (await call(admin, 'GET', '/apis/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>;
    };
    const user = document.paths['/apis/accounts/api/v3/orgs/{org_id}/users/{id}'];
    expect(Object.keys(user?.patch?.responses ?? {}).sort()).toEqual(
      ['200', '400', '401', '403', '404', '409', '412', '428'].sort(),
    );
    expect(user?.delete?.responses['204']).toBeDefined();
    expect(document.paths['/apis/accounts/api/v3/orgs/{org_id}/users/bulk']?.post?.tags).toEqual(['users']);
    expect(document.paths['/apis/accounts/api/v3/orgs/{org_id}/audit-events']?.get?.tags).toEqual(['audit-events']);
  });

  it("refuses a plain user, and any other organisation's administrator (403)", async () => {
    const acme = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    expect((await error(await patch(org.users.pending as string, { status: 'disabled' }, '*', acme), 403))?.code).toBe(
      'forbidden',
    );
    expect((await error(await remove(org.users.pending as string, '*', acme), 403))?.code).toBe('forbidden');
    expect((await error(await bulk({ action: 'disable', ids: [org.users.pending] }, acme), 403))?.code).toBe(
      'forbidden',
    );
    // An Acme user's id, asked in another organisation's name, is not found there.
    const acmeUser = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', DEMO_ORGS.acme.id)
      .where('email', '=', 'user@acme.example')
      .executeTakeFirstOrThrow();
    const response = await bulk({ action: 'disable', ids: [acmeUser.id] });
    expect(bulkResultDocumentSchema.parse(await response.json()).data.attributes.results[0]?.reason).toBe('not_found');
    const user = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    await error(await bulk({ action: 'disable', ids: [acmeUser.id] }, user, DEMO_ORGS.acme.id), 403);
    const anonymous = await call(undefined, 'DELETE', userPath(org.users.pending as string), {
      headers: { 'if-match': '*' },
    });
    expect((await error(anonymous, 401))?.code).toBe('unauthorized');
  });
});
