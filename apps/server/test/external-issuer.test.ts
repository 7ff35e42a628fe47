import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { demoDataFolder } from './support/demo-template.ts';
import { type ExternalAccount, type ExternalIssuer, startExternalIssuer } from './support/external-issuer.ts';
import { CookieJar } from './support/sign-in.ts';
import { freePort, startTestServer, type TestServer } from './support/test-server.ts';

// "An external OIDC issuer replaces the embedded one with OIDC_ISSUER, OIDC_CLIENT_ID,
// OIDC_CLIENT_SECRET". The issuer here is a separate panva oidc-provider with its own accounts,
// keys and claim names; our server only knows its address and its client registration.
const ORG_CLAIM = 'https://claims.example.com/org_id';
const LOCALE_CLAIM = 'preferred_language';
const CLIENT = { id: 'users-admin-at-example-id', secret: randomBytes(24).toString('base64url') };

const account = (username: string, claims: Partial<ExternalAccount['claims']>): ExternalAccount => ({
  username,
  password: `${username}-secret`,
  claims: { sub: `example-id|${username}`, email_verified: true, [LOCALE_CLAIM]: 'de', ...claims },
});
const ACCOUNTS = {
  // The Acme admin of the demo data, known to the issuer by its own subject and claim names.
  ada: account('ada', { email: 'Admin@Acme.example', name: 'Ada Admin', [ORG_CLAIM]: DEMO_ORGS.acme.id }),
  user: account('user', { email: 'user@acme.example', name: 'Ulla User', [ORG_CLAIM]: DEMO_ORGS.acme.id }),
  stranger: account('stranger', { email: 'nobody@elsewhere.example', [ORG_CLAIM]: DEMO_ORGS.acme.id }),
  unverified: account('unverified', {
    email: 'admin@acme.example',
    email_verified: false,
    [ORG_CLAIM]: DEMO_ORGS.acme.id,
  }),
  noOrg: account('no-org', { email: 'admin@acme.example' }),
};

async function startPair(options: { endSession?: boolean } = {}) {
  const port = await freePort();
  const relyingPartyUrl = `http://127.0.0.1:${port}`;
  const issuer = await startExternalIssuer({
    relyingPartyUrl,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    accounts: Object.values(ACCOUNTS),
    // This issuer's scope for the organisation is called `tenant`, not our `org`.
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', LOCALE_CLAIM],
      tenant: [ORG_CLAIM],
    },
    ...options,
  });
  const server = await startTestServer({
    PORT: String(port),
    OIDC_ISSUER: issuer.issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_ORG_CLAIM: ORG_CLAIM,
    OIDC_LOCALE_CLAIM: LOCALE_CLAIM,
    OIDC_SCOPES: 'openid email profile tenant',
  });
  return { issuer, server };
}

/** Sign-in at the external issuer's own form, then back through our /auth/callback. */
async function signInExternally(baseUrl: string, issuer: ExternalIssuer, who: ExternalAccount, jar = new CookieJar()) {
  const form = await jar.follow(`${baseUrl}/auth/start?post_auth_redirect_path=${encodeURIComponent('/?page=2')}`);
  expect(new URL(jar.lastUrl).origin).toBe(issuer.issuer);
  const action = /action="([^"]+)"/.exec(await form.text())?.[1];
  if (!action) throw new Error(`no sign-in form at ${jar.lastUrl}`);
  await jar.follow(new URL(action, issuer.issuer).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: who.username, password: who.password }).toString(),
  });
  return jar;
}

describe('an external OpenID issuer instead of the embedded one', () => {
  let issuer: ExternalIssuer;
  let server: TestServer;
  beforeAll(async () => {
    ({ issuer, server } = await startPair());
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  const userinfo = (jar: CookieJar) =>
    fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
  const listUsers = (jar: CookieJar, orgId: string) =>
    fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users?page[size]=5`, {
      headers: { cookie: jar.header() },
    });

  it('does not mount the embedded provider or its sign-in pages', async () => {
    for (const url of ['/idp/.well-known/openid-configuration', '/idp/auth', '/interaction/idp.css']) {
      expect((await fetch(`${server.baseUrl}${url}`)).status, url).toBe(404);
    }
  });

  it("sends /auth/start to the issuer's authorization endpoint with our callback, PKCE and the configured scopes", async () => {
    const response = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin).toBe(issuer.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT.id,
      redirect_uri: `${server.baseUrl}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile tenant',
      code_challenge_method: 'S256',
    });
  });

  it('signs in at the issuer and maps its claims: organisation and language from the configured names, the subject by e-mail', async () => {
    const jar = await signInExternally(server.baseUrl, issuer, ACCOUNTS.ada);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/?page=2`);
    const claims = await (await userinfo(jar)).json();
    const admin = await server.database.db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .select('users.id')
      .where('accounts.email', '=', 'admin@acme.example')
      .where('users.org_id', '=', DEMO_ORGS.acme.id)
      .executeTakeFirstOrThrow();
    // The session's subject is the Acme membership, as with the embedded provider; the issuer's
    // own subject ("example-id|ada") means nothing here.
    expect(claims).toEqual({
      sub: admin.id,
      org_id: DEMO_ORGS.acme.id,
      locale: 'de',
      name: 'Ada Admin',
      email: 'Admin@Acme.example',
    });
    const list = await listUsers(jar, DEMO_ORGS.acme.id);
    expect(list.status).toBe(200);
    expect((await list.json()).meta.total_count).toBeGreaterThan(400);
    expect((await listUsers(jar, DEMO_ORGS.globex.id)).status).toBe(403);
  });

  it('lets a plain user of the organisation sign in, and answers 403 to the list', async () => {
    const jar = await signInExternally(server.baseUrl, issuer, ACCOUNTS.user);
    expect((await userinfo(jar)).status).toBe(200);
    expect((await listUsers(jar, DEMO_ORGS.acme.id)).status).toBe(403);
  });

  it('refuses a person the organisation does not know, an unverified e-mail address and a missing organisation', async () => {
    for (const who of [ACCOUNTS.stranger, ACCOUNTS.unverified, ACCOUNTS.noOrg]) {
      const jar = await signInExternally(server.baseUrl, issuer, who);
      expect(jar.lastUrl, who.username).toBe(`${server.baseUrl}/login/callback?error=access_denied`);
      expect((await userinfo(jar)).status).toBe(400);
    }
  });

  it('renews the session silently with prompt=none at the issuer', async () => {
    const jar = await signInExternally(server.baseUrl, issuer, ACCOUNTS.ada);
    await sql`update sessions set access_token_expires_at = now() - interval '1 second'`.execute(server.database.db);
    expect((await userinfo(jar)).status).toBe(401);
    await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=success`);
    expect(await (await userinfo(jar)).json()).toMatchObject({ org_id: DEMO_ORGS.acme.id, locale: 'de' });
    expect((await listUsers(jar, DEMO_ORGS.acme.id)).status).toBe(200);
  });

  it("signs out at the issuer's end_session_endpoint, after which it asks for the password again", async () => {
    const jar = await signInExternally(server.baseUrl, issuer, ACCOUNTS.ada);
    const metadata = await (await fetch(`${issuer.issuer}/.well-known/openid-configuration`)).json();
    const before = jar.header();
    const logout = await fetch(`${server.baseUrl}/auth/logout`, {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    });
    jar.store(logout);
    const endSession = new URL(logout.headers.get('location') ?? '');
    expect(`${endSession.origin}${endSession.pathname}`).toBe(metadata.end_session_endpoint);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${server.baseUrl}/`);
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    const sessionCookie = { headers: { cookie: before } };
    expect((await fetch(`${server.baseUrl}/apis/oidc/userinfo`, sessionCookie)).status).toBe(401);

    // The issuer asks, as it may; the person confirms.
    const question = await jar.follow(endSession.href);
    const html = await question.text();
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    await jar.follow(new URL(action, issuer.issuer).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(jar.lastUrl).toBe(`${server.baseUrl}/`);

    await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=login_required`);
    const form = await jar.follow(`${server.baseUrl}/auth/start`);
    expect(new URL(jar.lastUrl).origin).toBe(issuer.issuer);
    expect(await form.text()).toContain('<label for="password">');
  });
});

describe('an external issuer without RP-initiated logout', () => {
  let issuer: ExternalIssuer;
  let server: TestServer;
  beforeAll(async () => {
    ({ issuer, server } = await startPair({ endSession: false }));
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('ends our session and shows a signed-out page instead of the page, which would sign in again', async () => {
    const jar = await signInExternally(server.baseUrl, issuer, ACCOUNTS.ada);
    const before = jar.header();
    const page = await jar.follow(`${server.baseUrl}/auth/logout?ui_locales=fr`);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/auth/signed-out?ui_locales=fr`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html lang="fr"');
    expect((await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: before } })).status).toBe(401);
  });
});

describe('an external issuer that cannot be reached', () => {
  it('refuses OIDC_ISSUER without its client in words', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      'Invalid configuration: OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    );
  });

  it('answers 503 on /auth/start, and a silent sign-in ends as temporarily_unavailable', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const server = await startTestServer({ OIDC_ISSUER: nobody, OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' });
    try {
      const asked = Date.now();
      const start = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
      // Refused at once: no waiting for a time-out when the issuer's port is closed.
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(start.status).toBe(503);
      expect(await start.text()).toBe(
        `The identity provider (${nobody}) cannot be reached. Please try again in a moment.`,
      );
      const jar = new CookieJar();
      await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
      expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=temporarily_unavailable`);
      expect((await fetch(`${server.baseUrl}/auth/logout`, { redirect: 'manual' })).status).toBe(503);
    } finally {
      await server.close();
    }
  });

  // A server process on PGlite: not run again in the pass on PostgreSQL.
  it.skipIf(process.env.TEST_DATABASE_URL)(
    'starts anyway and says so in one line at start-up, without a stack trace',
    async () => {
      const nobody = `http://127.0.0.1:${await freePort()}`;
      const port = await freePort();
      const dataDir = await demoDataFolder('users-admin-issuer-');
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          OIDC_ISSUER: nobody,
          OIDC_CLIENT_ID: 'x',
          OIDC_CLIENT_SECRET: 'y',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      try {
        const needed = [`OIDC_ISSUER ${nobody} cannot be reached`, 'is ready at'];
        await expect
          .poll(() => needed.every((text) => output.includes(text)) || child.exitCode !== null, { timeout: 60_000 })
          .toBe(true);
        expect(child.exitCode, output).toBeNull();
        expect(output).toContain(`sign-in answers 503 until it can`);
        expect(output).not.toMatch(/\n\s+at /);
        expect((await fetch(`http://127.0.0.1:${port}/auth/start`, { redirect: 'manual' })).status).toBe(503);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
