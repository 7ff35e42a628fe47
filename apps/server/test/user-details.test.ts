import { errorDocumentSchema, userDocumentSchema, userPath } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const ACME = DEMO_ORGS.acme.id;
const GLOBEX = DEMO_ORGS.globex.id;

describe('GET /apis/accounts/api/v3/orgs/{org_id}/users/{id}', () => {
  let server: TestServer;
  let acmeAdmin: CookieJar;
  let acmeUser: CookieJar;
  let globexAdmin: CookieJar;
  let someAcmeId: string;

  const get = (jar: CookieJar | undefined, orgId: string, id: string) =>
    fetch(`${server.baseUrl}${userPath(orgId, id)}`, { headers: jar ? { cookie: jar.header() } : {} });
  const subjectOf = async (jar: CookieJar) =>
    (
      (await (await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } })).json()) as {
        sub: string;
      }
    ).sub;

  beforeAll(async () => {
    server = await startTestServer();
    acmeAdmin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    acmeUser = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    globexAdmin = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar;
    const row = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', ACME)
      .where('account_id', 'is', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    someAcmeId = row.id;
  });
  afterAll(() => server.close());

  it("answers a user of one's own organisation with the list's attributes", async () => {
    const response = await get(acmeAdmin, ACME, someAcmeId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/vnd.api+json');
    const { data } = userDocumentSchema.parse(await response.json());
    expect(data).toMatchObject({ type: 'users', id: someAcmeId });
    expect(Date.parse(data.attributes.created_at)).not.toBeNaN();
  });

  it('records a sign-in on the signed-in user, in ISO 8601', async () => {
    const before = Date.now() - 1000;
    const jar = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    const { data } = userDocumentSchema.parse(await (await get(jar, ACME, await subjectOf(jar))).json());
    expect(Date.parse(data.attributes.last_sign_in_at ?? '')).toBeGreaterThanOrEqual(before);
  });

  it('answers 404 as a JSON:API error for an unknown id or one that is not a user id', async () => {
    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-an-id']) {
      const response = await get(acmeAdmin, ACME, id);
      expect(response.status).toBe(404);
      expect(errorDocumentSchema.parse(await response.json()).errors[0]?.code).toBe('not_found');
    }
  });

  it('answers 401 without a session and the same 403 for a plain user or another organisation, known id or not', async () => {
    expect((await get(undefined, ACME, someAcmeId)).status).toBe(401);
    for (const [jar, orgId] of [
      [acmeUser, ACME],
      [globexAdmin, ACME],
    ] as const) {
      for (const id of [someAcmeId, '00000000-0000-7000-8000-000000000000']) {
        const response = await get(jar, orgId, id);
        expect(response.status).toBe(403);
        expect(errorDocumentSchema.parse(await response.json()).errors[0]?.code).toBe('forbidden');
      }
    }
    expect((await get(globexAdmin, GLOBEX, someAcmeId)).status).toBe(404);
  });
});
