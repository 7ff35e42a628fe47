import {
  DEFAULT_USER_COLUMNS,
  JSON_API_MEDIA_TYPE,
  preferencesDocumentSchema,
  preferencesPath,
} from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const ACME: string = DEMO_ORGS.acme.id;
const GLOBEX = DEMO_ORGS.globex.id;

describe('the preferences of the signed-in administrator', () => {
  let server: TestServer;
  let acmeAdmin: CookieJar;

  const read = (jar: CookieJar | undefined, orgId = ACME) =>
    fetch(`${server.baseUrl}${preferencesPath(orgId)}`, { headers: jar ? { cookie: jar.header() } : {} });
  const save = (jar: CookieJar | undefined, body: unknown, orgId = ACME) =>
    fetch(`${server.baseUrl}${preferencesPath(orgId)}`, {
      method: 'PATCH',
      headers: { 'content-type': JSON_API_MEDIA_TYPE, ...(jar ? { cookie: jar.header() } : {}) },
      body: JSON.stringify(body),
    });
  const columnsOf = async (response: Response) => {
    expect(response.status).toBe(200);
    return preferencesDocumentSchema.parse(await response.json()).data.attributes.users_columns;
  };

  beforeAll(async () => {
    server = await startTestServer();
    acmeAdmin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
  });
  afterAll(() => server.close());

  it("answers SPEC.md's columns until the administrator chooses", async () => {
    expect(await columnsOf(await read(acmeAdmin))).toEqual(DEFAULT_USER_COLUMNS);
  });

  it('keeps a choice for the administrator in any other session, in the columns’ order', async () => {
    const chosen = {
      data: { type: 'preferences', attributes: { users_columns: ['created', 'status', 'last_sign_in'] } },
    };
    expect(await columnsOf(await save(acmeAdmin, chosen))).toEqual(['status', 'last_sign_in', 'created']);
    const elsewhere = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    expect(await columnsOf(await read(elsewhere))).toEqual(['status', 'last_sign_in', 'created']);
    const other = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar;
    expect(await columnsOf(await read(other, GLOBEX))).toEqual(DEFAULT_USER_COLUMNS);
  });

  it('refuses an unknown column with a JSON:API error and keeps the saved choice', async () => {
    const response = await save(acmeAdmin, {
      data: { type: 'preferences', attributes: { users_columns: ['salary'] } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    expect(await columnsOf(await read(acmeAdmin))).toEqual(['status', 'last_sign_in', 'created']);
  });

  it('answers 401 without a session and 403 for a plain user or another organisation', async () => {
    expect((await read(undefined)).status).toBe(401);
    expect((await save(undefined, {})).status).toBe(401);
    const user = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    expect((await read(user)).status).toBe(403);
    expect((await read(acmeAdmin, GLOBEX)).status).toBe(403);
    const body = { data: { type: 'preferences', attributes: { users_columns: [] } } };
    expect((await save(acmeAdmin, body, GLOBEX)).status).toBe(403);
  });
});
