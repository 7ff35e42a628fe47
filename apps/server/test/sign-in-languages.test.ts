import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('the language of the sign-in pages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Follows /auth/start to the identity provider's sign-in page, sending `headers` at every hop as a browser does. */
  const signInPage = async (query: string, headers: Record<string, string> = {}) => {
    const jar = new CookieJar();
    let url = `${server.baseUrl}/auth/start${query}`;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(url, { redirect: 'manual', headers: { ...headers, cookie: jar.header() } });
      jar.store(response);
      const location = response.headers.get('location');
      if (!location) {
        expect(url).toContain('/interaction/');
        return response.text();
      }
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects');
  };

  it('is English without a hint', async () => {
    const html = await signInPage('');
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('<label for="email">Email</label>');
  });

  it('follows the browser’s Accept-Language', async () => {
    const html = await signInPage('', { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' });
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('<button type="submit">Anmelden</button>');
  });

  it('prefers the ui_locales the page passes to /auth/start', async () => {
    const html = await signInPage('?ui_locales=ja', { 'accept-language': 'de' });
    expect(html).toContain('<html lang="ja"');
    expect(html).toContain('<label for="password">パスワード</label>');
  });

  it('answers a wrong password in the same language', async () => {
    const jar = new CookieJar();
    const form = await (await jar.follow(`${server.baseUrl}/auth/start?ui_locales=fr`)).text();
    const action = /action="([^"]+)"/.exec(form)?.[1] ?? '';
    const answer = await jar.follow(new URL(action, server.baseUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'admin@acme.example', password: 'wrong' }).toString(),
    });
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain('L’adresse e-mail ou le mot de passe est incorrect.');
  });

  it('offers the nine languages in the discovery document', async () => {
    const response = await fetch(`${server.baseUrl}/idp/.well-known/openid-configuration`);
    const discovery = (await response.json()) as { ui_locales_supported?: string[] };
    expect(discovery.ui_locales_supported).toEqual(['de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pt', 'zh']);
  });

  it('asks in the requested language when a sign-out at the provider needs confirming', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    // Our own sign-out carries an ID token hint and needs no confirmation; a bare request still asks.
    const confirmation = await jar.follow(`${server.baseUrl}/idp/session/end?ui_locales=nl`);
    const html = await confirmation.text();
    expect(html).toContain('<html lang="nl"');
    expect(html).toContain('<p>Wilt u zich afmelden?</p>');
    expect(html).toContain('>Afmelden</button>');
  });
});
