import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// "/logout ends the session at the server and at the identity provider". The page's
// /logout route sends the browser to /auth/logout, which these tests drive as a browser would.
describe('sign-out at the server and at the embedded identity provider', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const userinfo = (jar: CookieJar) =>
    fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: jar.header() } });
  const silentSignIn = (jar: CookieJar) => jar.follow(`${server.baseUrl}/auth/start?callback_mode=silent&prompt=none`);

  it('ends the provider sign-in too, without a confirmation page, and lands on the page root', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    // Before: a silent sign-in succeeds, the provider still knows the person.
    await silentSignIn(jar);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=success`);

    const logout = await fetch(`${server.baseUrl}/auth/logout?ui_locales=de`, {
      redirect: 'manual',
      headers: { cookie: jar.header() },
    });
    jar.store(logout);
    const endSession = new URL(logout.headers.get('location') ?? '', server.baseUrl);
    expect(endSession.pathname).toBe('/idp/session/end');
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${server.baseUrl}/`);

    // The provider ends its session at once (303), no page asks "do you want to sign out?".
    const ended = await fetch(endSession, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(ended);
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe(`${server.baseUrl}/`);
    expect(ended.headers.getSetCookie().some((c) => /^_session=;/.test(c))).toBe(true);

    expect((await userinfo(jar)).status).toBe(400);
    // A silent sign-in now fails as SPEC.md §8 expects, and a full one asks for the password again.
    await silentSignIn(jar);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=login_required`);
    const form = await jar.follow(`${server.baseUrl}/auth/start`);
    expect(new URL(jar.lastUrl).pathname).toMatch(/^\/interaction\//);
    expect(await form.text()).toContain('<label for="password">');
  });

  it('follows the whole chain from /auth/logout with a cookie jar to the page root', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    await jar.follow(`${server.baseUrl}/auth/logout`);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/`);
    await silentSignIn(jar);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=login_required`);
  });

  it('ends the sessions in the database: the old provider cookie cannot sign in silently', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    const copied = new CookieJar();
    for (const pair of jar.header().split('; ')) copied.store(new Response(null, { headers: { 'set-cookie': pair } }));
    await jar.follow(`${server.baseUrl}/auth/logout`);
    // A copy of the cookies from before the sign-out (say, another tab's) is worth nothing now.
    await silentSignIn(copied);
    expect(copied.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=error&error=login_required`);
  });

  it('still asks for confirmation when the request does not prove it comes from this sign-in', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    // Someone else's ID token as the hint (a link crafted by another person): ask, do not sign out.
    const other = await signIn(server.baseUrl, 'user@acme.example', 'user');
    const otherLogout = await fetch(`${server.baseUrl}/auth/logout`, {
      redirect: 'manual',
      headers: { cookie: other.jar.header() },
    });
    const hinted = new URL(otherLogout.headers.get('location') ?? '');
    for (const url of [hinted.href, `${server.baseUrl}/idp/session/end`]) {
      const page = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Do you want to sign out?');
    }
    await silentSignIn(jar);
    expect(jar.lastUrl).toBe(`${server.baseUrl}/oidc/callback?status=success`);
  });
});
