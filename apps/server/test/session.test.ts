import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { CookieJar, chooseOrganization, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('the session lookup and sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 400 invalid_request "no access token provided" without a session', async () => {
    const response = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'no access token provided' });
  });

  it("removes expired sessions and the identity provider's expired records as people sign in, and keeps the live ones", async () => {
    const { db } = server.database;
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const session = (id: string, expiresAt: Date, accessTokenExpiresAt = expiresAt) => ({
      id,
      account_sub: 'someone',
      org_id: DEMO_ORGS.acme.id,
      claims: '{}',
      id_token: null,
      access_token_expires_at: accessTokenExpiresAt,
      expires_at: expiresAt,
    });
    await db
      .insertInto('sessions')
      .values([
        session('expired-session', past),
        session('live-session', future),
        // Its access token expired, but the session lives on until a silent sign-in renews it.
        session('renewable-session', future, past),
      ])
      .execute();
    const payload = (id: string, expiresAt: Date | null) => ({
      model: 'Session',
      id,
      payload: '{}',
      grant_id: null,
      user_code: null,
      uid: null,
      expires_at: expiresAt,
      consumed_at: null,
    });
    await db
      .insertInto('oidc_payloads')
      .values([payload('expired-payload', past), payload('live-payload', future), payload('timeless-payload', null)])
      .execute();

    await signIn(server.baseUrl, 'admin@acme.example', 'admin');

    const sessions = await db.selectFrom('sessions').select('id').where('id', 'like', '%-session').execute();
    expect(sessions.map((row) => row.id).sort()).toEqual(['live-session', 'renewable-session']);
    const payloads = await db.selectFrom('oidc_payloads').select('id').where('id', 'like', '%-payload').execute();
    expect(payloads.map((row) => row.id).sort()).toEqual(['live-payload', 'timeless-payload']);
    const expired = await db
      .selectFrom('oidc_payloads')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('expires_at', '<=', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    expect(expired.n).toBe(0);
  });

  it('answers 401 for a session cookie the server does not know', async () => {
    const response = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: 'sid=forged.value' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('signs in through the embedded identity provider and returns to the requested page', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin', '/?page=2');
    const start = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
    expect(start.status).toBe(200);
    const claims = await start.json();
    expect(claims).toMatchObject({
      email: 'admin@acme.example',
      locale: 'en',
      org_id: '01900000-0000-7000-8000-000000000001',
    });
  });

  it('redirects back to the post_auth_redirect_path after sign-in', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin', '/?page=2&sort=name');
    expect(jar.lastUrl).toBe(`${server.baseUrl}/?page=2&sort=name`);
  });

  it('sends a signed-out visitor of /auth/start to the identity provider with PKCE', async () => {
    const response = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.pathname).toBe('/idp/auth');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
  });

  it('refuses a wrong password with the sign-in form again and no session', async () => {
    const { jar, landing } = await signIn(server.baseUrl, 'admin@acme.example', 'wrong');
    expect(landing.status).toBe(401);
    expect(await landing.text()).toContain('The email or password is not right.');
    const response = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
    expect(response.status).toBe(400);
  });

  it('serves the sign-in page with fields labelled Email and Password and a Sign in button', async () => {
    const jarless = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
    const cookie = jarless.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const authorize = await fetch(jarless.headers.get('location') ?? '', { redirect: 'manual', headers: { cookie } });
    const interaction = new URL(authorize.headers.get('location') ?? '', server.baseUrl);
    const page = await fetch(interaction, {
      headers: {
        cookie: authorize.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      },
    });
    const html = await page.text();
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
  });

  it('ends the session at the server on sign-out, so the cookie stops working', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    const copied = jar.header();
    const logout = await fetch(`${server.baseUrl}/auth/logout`, { redirect: 'manual', headers: { cookie: copied } });
    expect(logout.status).toBe(302);
    const after = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: copied } });
    expect(after.status).toBe(401);
  });

  const userinfo = (jar: CookieJar) =>
    fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
  const expireAccessTokens = () =>
    sql`update sessions set access_token_expires_at = now() - interval '1 second'`.execute(server.database.db);

  it('answers 401 once the access token expired, and a silent sign-in renews it', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    await expireAccessTokens();
    expect((await userinfo(jar)).status).toBe(401);

    await jar.follow(
      `${server.baseUrl}/auth/start?resource=${encodeURIComponent(server.baseUrl)}&callback_mode=silent&prompt=none`,
    );
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=success`);
    const renewed = await userinfo(jar);
    expect(renewed.status).toBe(200);
    expect(await renewed.json()).toMatchObject({ email: 'admin@acme.example' });
  });

  it('ends a silent sign-in with login_required when the identity provider has no sign-in', async () => {
    const jar = new CookieJar();
    await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=login_required`);
    expect((await userinfo(jar)).status).toBe(400);
  });

  it('lets a person in several organisations choose one, and the session is of that one', async () => {
    const { jar, landing } = await signIn(server.baseUrl, 'pat@partners.example', 'pat');
    const page = await landing.text();
    expect(page).toContain('Choose an organisation');
    expect(page).toContain('Acme');
    await chooseOrganization(jar, server.baseUrl, page, 'Globex');
    const claims = await (await userinfo(jar)).json();
    expect(claims).toMatchObject({ email: 'pat@partners.example', locale: 'fr', org_id: DEMO_ORGS.globex.id });

    const list = (orgId: string) =>
      fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users`, { headers: { cookie: jar.header() } });
    expect((await list(DEMO_ORGS.globex.id)).status).toBe(200);
    expect((await list(DEMO_ORGS.acme.id)).status).toBe(403);
  });

  it('keeps the chosen organisation through a silent renewal', async () => {
    const { jar, landing } = await signIn(server.baseUrl, 'pat@partners.example', 'pat');
    await chooseOrganization(jar, server.baseUrl, await landing.text(), 'Acme');
    await expireAccessTokens();
    await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
    expect(await (await userinfo(jar)).json()).toMatchObject({ org_id: DEMO_ORGS.acme.id });
  });

  it('only ever redirects to a same-origin path after sign-in', async () => {
    for (const hostile of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
    ]) {
      const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin', hostile);
      expect(new URL(jar.lastUrl).origin).toBe(server.baseUrl);
    }
  });
});
