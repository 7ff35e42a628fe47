import { createHash } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CLIENT_ID } from '../src/auth/identity-provider.ts';
import { cookieOptions } from '../src/auth/sessions.ts';
import { followUntilCallback, setCookieOf, signInUntilCallback } from './support/auth-flow.ts';
import { HOSTILE_REDIRECTS } from './support/hostile-values.ts';
import { CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Over 300 lines: the sign-in flow's cases share one server and its identity provider.

const SESSION_SECRET = 'a-test-secret-of-at-least-32-characters!';
const ADMIN = { email: 'admin@acme.example', password: 'admin' };

/** The session cookie's value without its signature. */
const sessionIdOf = (jar: CookieJar) => {
  const value = /(?:^|; )sid=([^;]+)/.exec(jar.header())?.[1];
  return value ? unsign(decodeURIComponent(value), SESSION_SECRET).value : null;
};

describe('session cookies and the sign-in flow', () => {
  let server: TestServer;
  const sessionCount = async () =>
    Number(
      (
        await server.database.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const userinfo = (cookie: string) => fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie } });

  beforeAll(async () => {
    server = await startTestServer({ SESSION_SECRET });
  });
  afterAll(() => server.close());

  describe('cookies', () => {
    it('sets the session cookie HttpOnly, SameSite=Lax, on /, signed, and not Secure on plain http', async () => {
      const jar = new CookieJar();
      const callback = await signInUntilCallback(jar, server.baseUrl, ADMIN);
      const answer = await fetch(callback, { redirect: 'manual', headers: { cookie: jar.header() } });
      const cookie = setCookieOf(answer, 'sid') ?? '';
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/; Secure/);
      const value = decodeURIComponent(/^sid=([^;]+)/.exec(cookie)?.[1] ?? '');
      expect(unsign(value, SESSION_SECRET).valid).toBe(true);
    });

    it('sets the sign-in transaction cookie HttpOnly, SameSite=Lax, signed and only for /auth', async () => {
      const start = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
      const cookie = setCookieOf(start, 'auth_tx') ?? '';
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\/auth/);
      expect(cookie).toMatch(/; Max-Age=600/);
      expect(unsign(decodeURIComponent(/^auth_tx=([^;]+)/.exec(cookie)?.[1] ?? ''), SESSION_SECRET).valid).toBe(true);
    });

    it('refuses a session cookie whose signature does not match, even with a live session id', async () => {
      const { jar } = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
      const id = sessionIdOf(jar);
      expect((await userinfo(jar.header())).status).toBe(200);
      const forged = sign(id ?? '', 'another-secret-of-at-least-32-characters');
      expect((await userinfo(`sid=${encodeURIComponent(forged)}`)).status).toBe(401);
      expect((await userinfo(`sid=${id}`)).status).toBe(401);
    });

    it('makes cookies Secure when PUBLIC_URL is https, else when the request arrived over https', () => {
      expect(cookieOptions('https://users.example', '/').secure).toBe(true);
      // 'auto': Secure when Fastify's request.protocol is https (TRUST_PROXY decides whether
      // X-Forwarded-Proto counts; the next test proves both sides of that).
      expect(cookieOptions('http://127.0.0.1:3000', '/').secure).toBe('auto');
    });
  });

  describe('behind a proxy', () => {
    let proxied: TestServer;
    let direct: TestServer;
    beforeAll(async () => {
      proxied = await startTestServer({ TRUST_PROXY: '127.0.0.1' });
      direct = await startTestServer();
    });
    afterAll(async () => {
      await proxied.close();
      await direct.close();
    });

    const signInOverHttps = async (target: TestServer) => {
      const jar = new CookieJar();
      const headers = { 'x-forwarded-proto': 'https' };
      const callback = await signInUntilCallback(jar, target.baseUrl, ADMIN, '', headers);
      return fetch(callback, { redirect: 'manual', headers: { ...headers, cookie: jar.header() } });
    };

    it('sets Secure cookies when TRUST_PROXY trusts the proxy and it says the request came over https', async () => {
      const start = await fetch(`${proxied.baseUrl}/auth/start`, {
        redirect: 'manual',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(setCookieOf(start, 'auth_tx')).toMatch(/; Secure/);
      expect(setCookieOf(await signInOverHttps(proxied), 'sid')).toMatch(/; Secure/);
      const plain = await fetch(`${proxied.baseUrl}/auth/start`, { redirect: 'manual' });
      expect(setCookieOf(plain, 'auth_tx')).not.toMatch(/; Secure/);
    });

    it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
      expect(setCookieOf(await signInOverHttps(direct), 'sid')).not.toMatch(/; Secure/);
    });

    it("gives the identity provider's cookies the same verdict on X-Forwarded-Proto as the server's", async () => {
      const providerCookies = async (target: TestServer) => {
        const headers = { 'x-forwarded-proto': 'https' };
        const start = await fetch(`${target.baseUrl}/auth/start`, { redirect: 'manual', headers });
        const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual', headers });
        expect(authorize.status).toBe(303);
        const cookies = authorize.headers.getSetCookie().filter((cookie) => cookie.startsWith('_interaction'));
        expect(cookies.length).toBeGreaterThan(0);
        return cookies;
      };
      for (const cookie of await providerCookies(proxied)) expect(cookie).toMatch(/; secure/i);
      for (const cookie of await providerCookies(direct)) expect(cookie).not.toMatch(/; secure/i);
    });
  });

  describe('session fixation', () => {
    it('gives a new random session id at sign-in and deletes the session of the cookie that was there', async () => {
      const { jar } = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
      const before = sessionIdOf(jar);
      const copied = jar.header();
      expect(before).toBeTruthy();

      // The same browser (same cookie) signs in again, e.g. someone planted their cookie in it.
      const callback = await signInUntilCallback(jar, server.baseUrl, ADMIN, '?prompt=login');
      const count = await sessionCount();
      await jar.follow(callback.href);
      const after = sessionIdOf(jar);
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
      expect((await userinfo(jar.header())).status).toBe(200);
      expect((await userinfo(copied)).status).toBe(401);
      // One row replaced by one: the old one is gone, not merely unused.
      expect(await sessionCount()).toBe(count);
      const oldRow = await server.database.db
        .selectFrom('sessions')
        .select('id')
        .where(
          'id',
          '=',
          createHash('sha256')
            .update(before ?? '')
            .digest('hex'),
        )
        .executeTakeFirst();
      expect(oldRow).toBeUndefined();
    });

    it('never takes a session id from the browser: an unknown cookie before sign-in is not the one after', async () => {
      const jar = new CookieJar();
      const planted = 'chosen-by-an-attacker';
      jar.store(new Response(null, { headers: { 'set-cookie': `sid=${sign(planted, SESSION_SECRET)}; Path=/` } }));
      const callback = await signInUntilCallback(jar, server.baseUrl, ADMIN);
      await jar.follow(callback.href);
      expect(sessionIdOf(jar)).not.toBe(planted);
      expect((await userinfo(`sid=${encodeURIComponent(sign(planted, SESSION_SECRET))}`)).status).toBe(401);
    });
  });

  describe('sign-out', () => {
    it('deletes the session at the server, so a copied cookie stops working', async () => {
      const { jar } = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
      const copied = jar.header();
      expect((await userinfo(copied)).status).toBe(200);
      const count = await sessionCount();
      const logout = await fetch(`${server.baseUrl}/auth/logout`, { redirect: 'manual', headers: { cookie: copied } });
      expect(logout.status).toBe(302);
      expect(setCookieOf(logout, 'sid')).toMatch(/^sid=;/);
      expect(await sessionCount()).toBe(count - 1);
      expect((await userinfo(copied)).status).toBe(401);
      const list = await fetch(
        `${server.baseUrl}/apis/accounts/api/v3/orgs/01900000-0000-7000-8000-000000000001/users`,
        {
          headers: { cookie: copied },
        },
      );
      expect(list.status).toBe(401);
    });
  });

  describe('the way back after sign-in', () => {
    it.each(HOSTILE_REDIRECTS)('lands on this server for post_auth_redirect_path %j', async (path) => {
      const { jar } = await signIn(server.baseUrl, ADMIN.email, ADMIN.password, path);
      expect(new URL(jar.lastUrl).origin).toBe(server.baseUrl);
    });
  });

  describe('the callback checks state, nonce and PKCE', () => {
    /** Runs the flow to the callback and returns its address and the jar holding the transaction. */
    const untilCallback = async () => {
      const jar = new CookieJar();
      const callback = await signInUntilCallback(jar, server.baseUrl, ADMIN);
      return { jar, callback };
    };
    const transactionOf = (jar: CookieJar) => {
      const raw = decodeURIComponent(/(?:^|; )auth_tx=([^;]+)/.exec(jar.header())?.[1] ?? '');
      const pending = JSON.parse(unsign(raw, SESSION_SECRET).value ?? '[]') as Record<string, unknown>[];
      return pending.at(-1) ?? {};
    };
    const withTransaction = (transaction: Record<string, unknown>) =>
      `auth_tx=${encodeURIComponent(sign(JSON.stringify([transaction]), SESSION_SECRET))}`;

    /** A refused callback: a 4xx page that says so, no session cookie, no session row. */
    const expectRefused = async (answer: Response, sessionsBefore: number) => {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(await answer.text()).toMatch(/sign-in (could not be completed|has expired)/);
      expect(setCookieOf(answer, 'sid')).toBeUndefined();
      expect(await sessionCount()).toBe(sessionsBefore);
    };

    it('refuses a callback without its transaction cookie (a code sent to someone else)', async () => {
      const { callback } = await untilCallback();
      const count = await sessionCount();
      await expectRefused(await fetch(callback, { redirect: 'manual' }), count);
    });

    it('refuses a callback whose state is not the one the server sent', async () => {
      const { jar, callback } = await untilCallback();
      const count = await sessionCount();
      const wrong = new URL(callback);
      wrong.searchParams.set('state', 'not-the-state');
      await expectRefused(await fetch(wrong, { redirect: 'manual', headers: { cookie: jar.header() } }), count);
    });

    it('keeps a full sign-in waiting at the form when a silent renewal runs in another tab meanwhile', async () => {
      const jar = new CookieJar();
      const form = await jar.follow(`${server.baseUrl}/auth/start?post_auth_redirect_path=%2Fusers`);
      const action = /action="([^"]+)"/.exec(await form.text())?.[1];
      expect(action).toBeDefined();
      // The other tab's hidden frame: not signed in at the provider yet, so it ends in login_required.
      const silent = await jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);
      expect(jar.lastUrl).toMatch(/\/oidc\/callback\?status=error&error=login_required$/);
      expect(silent.status).toBeLessThan(500);
      const landing = await jar.follow(new URL(action ?? '', server.baseUrl).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(ADMIN).toString(),
      });
      expect(new URL(jar.lastUrl).pathname).toBe('/users');
      expect(landing.status).toBeLessThan(500);
      expect((await userinfo(jar.header())).status).toBe(200);
    });

    it('refuses a callback without a state', async () => {
      const { jar, callback } = await untilCallback();
      const count = await sessionCount();
      const missing = new URL(callback);
      missing.searchParams.delete('state');
      await expectRefused(await fetch(missing, { redirect: 'manual', headers: { cookie: jar.header() } }), count);
    });

    it('refuses a transaction cookie that was tampered with', async () => {
      const { jar, callback } = await untilCallback();
      const count = await sessionCount();
      const tampered = jar.header().replace(/auth_tx=([^;]+)/, (_all, value: string) => `auth_tx=${value}x`);
      await expectRefused(await fetch(callback, { redirect: 'manual', headers: { cookie: tampered } }), count);
    });

    it('refuses a replayed code, even with the transaction cookie copied', async () => {
      const { jar, callback } = await untilCallback();
      const cookie = jar.header();
      const first = await fetch(callback, { redirect: 'manual', headers: { cookie } });
      expect(setCookieOf(first, 'sid')).toBeDefined();
      const count = await sessionCount();
      await expectRefused(await fetch(callback, { redirect: 'manual', headers: { cookie } }), count);
    });

    it('refuses an ID token whose nonce is not the one of the transaction', async () => {
      const { jar, callback } = await untilCallback();
      const count = await sessionCount();
      const transaction = { ...transactionOf(jar), nonce: 'another-nonce' };
      await expectRefused(
        await fetch(callback, { redirect: 'manual', headers: { cookie: withTransaction(transaction) } }),
        count,
      );
    });

    it('refuses a code redeemed with another PKCE verifier', async () => {
      const { jar, callback } = await untilCallback();
      const count = await sessionCount();
      const transaction = { ...transactionOf(jar), verifier: 'x'.repeat(43) };
      await expectRefused(
        await fetch(callback, { redirect: 'manual', headers: { cookie: withTransaction(transaction) } }),
        count,
      );
    });

    it('has the identity provider refuse an authorization request without PKCE', async () => {
      const params = new URLSearchParams({
        client_id: EMBEDDED_CLIENT_ID,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: `${server.baseUrl}/auth/callback`,
        state: 's',
      });
      const answer = await fetch(`${server.baseUrl}/idp/auth?${params}`, { redirect: 'manual' });
      const location = new URL(answer.headers.get('location') ?? '', server.baseUrl);
      expect(location.pathname).toBe('/auth/callback');
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    });

    it('reports a refused silent sign-in to the frame (it must answer the page) without a session', async () => {
      const { jar } = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
      const start = await fetch(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`, {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      });
      const callback = await followUntilCallback(jar, start);
      const count = await sessionCount();
      const wrong = new URL(callback);
      wrong.searchParams.set('state', 'not-the-state');
      const answer = await fetch(wrong, { redirect: 'manual', headers: { cookie: jar.header() } });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe('/oidc/callback?status=error&error=invalid_state');
      expect(setCookieOf(answer, 'sid')).toBeUndefined();
      expect(await sessionCount()).toBe(count);
    });
  });
});
