import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/sign-in.ts';
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
});
