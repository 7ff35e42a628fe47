import { errorDocumentSchema, userListDocumentSchema } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import type { CookieJar } from './support/sign-in.ts';
import { signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const ACME = DEMO_ORGS.acme.id;
const GLOBEX = DEMO_ORGS.globex.id;

describe('GET /apis/accounts/api/v3/orgs/{org_id}/users', () => {
  let server: TestServer;
  let acmeAdmin: CookieJar;
  let acmeUser: CookieJar;
  let globexAdmin: CookieJar;

  const list = (jar: CookieJar | undefined, orgId: string, query = '') =>
    fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query}`, {
      headers: jar ? { cookie: jar.header() } : {},
    });

  /** The answer, checked against the contract's schema of a list document. */
  const listDocument = async (response: Response) => {
    expect(response.status).toBe(200);
    return userListDocumentSchema.parse(await response.json());
  };
  const errorDocument = async (response: Response) => errorDocumentSchema.parse(await response.json());

  beforeAll(async () => {
    server = await startTestServer();
    acmeAdmin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    acmeUser = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    globexAdmin = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar;
  });
  afterAll(() => server.close());

  it('answers the first 25 users as a JSON:API document with the exact total', async () => {
    const response = await list(acmeAdmin, ACME);
    expect(response.headers.get('content-type')).toContain('application/vnd.api+json');
    const document = await listDocument(response);
    expect(document.data).toHaveLength(25);
    expect(document.meta.total_count).toBe(423);
    expect(document.data[0]).toMatchObject({
      type: 'users',
      attributes: expect.objectContaining({ status: expect.any(String) }),
    });
    expect(Object.keys(document.data[0]?.attributes ?? {}).sort()).toEqual(
      [
        'created_at',
        'email',
        'first_name',
        'initials',
        'is_external',
        'is_system_admin',
        'last_name',
        'last_sign_in_at',
        'name',
        'status',
      ].sort(),
    );
    expect(document.links.first).toBe(`/apis/accounts/api/v3/orgs/${ACME}/users`);
    expect(document.links.next).toBe(`/apis/accounts/api/v3/orgs/${ACME}/users?page%5Bnumber%5D=2`);
    expect(document.links.prev).toBeUndefined();
  });

  it('pages with page[size] and page[number], every user exactly once', async () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 5; page++) {
      const document = await listDocument(
        await list(acmeAdmin, ACME, `?page[size]=100&page[number]=${page}&sort=name`),
      );
      for (const user of document.data) seen.add(user.id);
    }
    expect(seen.size).toBe(423);
  });

  it('answers an empty page with the true total past the last page', async () => {
    const document = await listDocument(await list(acmeAdmin, ACME, '?page[number]=999'));
    expect(document.data).toEqual([]);
    expect(document.meta.total_count).toBe(423);
  });

  it('answers 401 without a session', async () => {
    const response = await list(undefined, ACME);
    expect(response.status).toBe(401);
    expect((await errorDocument(response)).errors[0]?.status).toBe('401');
  });

  it('answers 403 to a plain User of the organisation', async () => {
    expect((await list(acmeUser, ACME)).status).toBe(403);
  });

  it('answers 403 to the admin of another organisation, whether or not the org exists', async () => {
    const other = await list(globexAdmin, ACME);
    const missing = await list(globexAdmin, '01900000-0000-7000-8000-0000000000ff');
    expect(other.status).toBe(403);
    expect(missing.status).toBe(403);
    expect(await errorDocument(other)).toEqual(await errorDocument(missing));
  });

  it('answers 403 with the same body once the admin loses the role or is deactivated, 401 once the session ends', async () => {
    const jar = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    const { db } = server.database;
    const subject = await db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select('users.id')
      .where('users.org_id', '=', ACME)
      .where('accounts.email', '=', 'admin@acme.example')
      .executeTakeFirstOrThrow();
    const set = (values: { is_system_admin?: boolean; status?: 'active' | 'disabled' }) =>
      db.updateTable('users').set(values).where('org_id', '=', ACME).where('id', '=', subject.id).execute();
    const forbidden = await errorDocument(await list(globexAdmin, ACME));
    try {
      await set({ is_system_admin: false });
      const demoted = await list(jar, ACME);
      expect(demoted.status).toBe(403);
      expect(await errorDocument(demoted)).toEqual(forbidden);
      await set({ is_system_admin: true, status: 'disabled' });
      const disabled = await list(jar, ACME);
      expect(disabled.status).toBe(403);
      expect(await errorDocument(disabled)).toEqual(forbidden);
      await set({ status: 'active' });
      expect((await list(jar, ACME)).status).toBe(200);
    } finally {
      await set({ is_system_admin: true, status: 'active' });
    }
    // The newest session of the subject is the one just signed in (the suite's own came before).
    const newest = await db
      .selectFrom('sessions')
      .select('id')
      .where('account_sub', '=', subject.id)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', newest.id)
      .execute();
    const ended = await list(jar, ACME);
    expect(ended.status).toBe(401);
    expect(await errorDocument(ended)).toEqual(await errorDocument(await list(undefined, ACME)));
  });

  it('never shows one organisation the users of another', async () => {
    const document = await listDocument(await list(globexAdmin, GLOBEX, '?page[size]=100'));
    expect(document.meta.total_count).toBe(62);
    for (const user of document.data) expect(user.attributes.email).not.toMatch(/acme/);
  });

  it.each([
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['page[size]=abc', 'page[size]'],
    ['page[size]=1.5', 'page[size]'],
    ['page[number]=0', 'page[number]'],
    ['sort=email', 'sort'],
    ['filter[status]=gone', 'filter[status]'],
    ['filter[is_system_admin]=yes', 'filter[is_system_admin]'],
    ['filter[unknown]=1', 'filter[unknown]'],
    ['page[offset]=1', 'page[offset]'],
    [`filter[query]=${'x'.repeat(201)}`, 'filter[query]'],
    ['filter[query]=%00', 'filter[query]'],
    ['filter[query]=a%1Fb', 'filter[query]'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const response = await list(acmeAdmin, ACME, `?${query}`);
    expect(response.status).toBe(400);
    const body = await errorDocument(response);
    expect(body.errors[0]?.source?.parameter).toBe(parameter);
    expect(body.errors[0]?.detail).toMatch(/must|not a parameter/);
    expect(JSON.stringify(body)).not.toMatch(/stack|select|at .*\.ts/i);
  });

  it('answers 400 for a malformed org id', async () => {
    const response = await list(acmeAdmin, 'not-an-id');
    expect(response.status).toBe(400);
    expect((await errorDocument(response)).errors[0]?.source?.parameter).toBe('org_id');
  });
});

describe('the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('publishes the users list with the same parameters the server checks', async () => {
    const response = await fetch(`${server.baseUrl}/apis/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, { get: { parameters: { name: string; in: string }[] } }>;
    };
    const list = document.paths['/apis/accounts/api/v3/orgs/{org_id}/users'];
    expect(list?.get.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual(
      [
        'path:org_id',
        'query:filter[is_external]',
        'query:filter[is_system_admin]',
        'query:filter[last_sign_in]',
        'query:filter[query]',
        'query:filter[status]',
        'query:page[number]',
        'query:page[size]',
        'query:page[total]',
        'query:sort',
      ].sort(),
    );
    const total = list?.get.parameters.find((p) => p.name === 'page[total]') as { description?: string } | undefined;
    expect(total?.description).toMatch(/counts every match/);
    expect(document.paths['/apis/oidc/userinfo']).toBeDefined();
  });
});
