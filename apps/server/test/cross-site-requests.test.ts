import { errorDocumentSchema, usersPath } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const ACME = DEMO_ORGS.acme.id;
const EVIL = 'https://evil.example';

describe('cross-site request forgery', () => {
  let server: TestServer;
  let admin: CookieJar;
  let userId: string;

  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        cookie: admin.header(),
        ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const preferences = (headers: Record<string, string>) =>
    send('PATCH', `/apis/accounts/api/v3/orgs/${ACME}/preferences`, headers, {
      data: { type: 'preferences', id: 'x', attributes: { users_columns: ['status'] } },
    });
  // As the page sends it: plain JSON, a selection of one user.
  const exportCsv = (headers: Record<string, string>) =>
    fetch(`${server.baseUrl}${usersPath(ACME)}/export`, {
      method: 'POST',
      headers: { cookie: admin.header(), 'content-type': 'application/json', accept: 'text/csv', ...headers },
      body: JSON.stringify({
        columns: [{ key: 'name', header: 'Name' }],
        values: {
          platform: 'Platform',
          third_party: 'Third party',
          active: 'Active',
          inactive: 'Inactive',
          pending: 'Pending',
          disabled: 'Disabled',
          system_admin: 'System Admin',
          user: 'User',
          never: 'Never',
        },
        selection: { mode: 'some', ids: [userId] },
      }),
    });
  const refused = async (response: Response) => {
    expect(response.status).toBe(403);
    const [error] = errorDocumentSchema.parse(await response.json()).errors;
    expect(error?.code).toBe('cross_site_request');
    expect(error?.detail).toMatch(/another site/);
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    const row = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', ACME)
      .where('email', '=', 'user@acme.example')
      .executeTakeFirstOrThrow();
    userId = row.id;
  });
  afterAll(() => server.close());

  it("keeps the page's own calls working: same origin, or no Origin from a client that is not a browser", async () => {
    const own = new URL(server.baseUrl).origin;
    expect((await preferences({ origin: own, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await preferences({})).status).toBe(200);
    const csv = await exportCsv({ origin: own });
    expect(csv.status).toBe(200);
    await csv.text();
  });

  it('refuses a state-changing call from another origin with 403, changing nothing', async () => {
    await refused(await preferences({ origin: EVIL }));
    await refused(await preferences({ origin: 'null' }));
    await refused(await preferences({ origin: new URL(server.baseUrl).origin.replace(/:\d+$/, ':1') }));
    await refused(await exportCsv({ origin: EVIL }));
    await refused(await send('DELETE', `${usersPath(ACME)}/${userId}`, { origin: EVIL, 'if-match': '*' }));
    await refused(
      await send(
        'POST',
        `${usersPath(ACME)}/bulk`,
        { origin: EVIL },
        { data: { type: 'bulk-actions', attributes: { action: 'disable', ids: [userId] } } },
      ),
    );
    await refused(await send('PUT', `${usersPath(ACME)}/${userId}`, { origin: EVIL }));
    const user = await send('GET', `${usersPath(ACME)}/${userId}`, {});
    expect(((await user.json()) as { data: { attributes: { status: string } } }).data.attributes.status).toBe('active');
  });

  it('refuses a browser that says the call is cross-site even without Origin', async () => {
    await refused(await preferences({ 'sec-fetch-site': 'cross-site' }));
    await refused(await preferences({ 'sec-fetch-site': 'same-site' }));
  });

  it('lets reads from anywhere through: they change nothing', async () => {
    expect((await send('GET', usersPath(ACME), { origin: EVIL })).status).toBe(200);
  });
});

describe('cross-site request forgery behind another public address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://users.example' });
  });
  afterAll(() => server.close());

  it("takes PUBLIC_URL's origin and the request's own (a proxy keeping the browser's Host) as the page's", async () => {
    const url = `http://${new URL(server.app.listeningOrigin).host}/apis/accounts/api/v3/orgs/${ACME}/preferences`;
    const patch = (origin: string) => fetch(url, { method: 'PATCH', headers: { origin } });
    // Not signed in: the same origin reaches the session check (401), another is refused first (403).
    expect((await patch('https://users.example')).status).toBe(401);
    expect((await patch(new URL(url).origin)).status).toBe(401);
    expect((await patch('http://users.example')).status).toBe(403);
    expect((await patch(EVIL)).status).toBe(403);
  });
});
