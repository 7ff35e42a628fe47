import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDP_MESSAGES } from '../src/auth/idp-messages.ts';
import { CookieJar } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const MAX_ATTEMPTS = 3;
const WINDOW_SECONDS = 2;

/**
 * Rate limiting of the embedded identity provider's sign-in form: attempts per e-mail
 * address and client address, counted in the database.
 */
describe('sign-in rate limiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SIGN_IN_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      SIGN_IN_WINDOW: String(WINDOW_SECONDS),
    });
  });
  afterAll(() => server.close());

  /** Opens the sign-in form and returns a function that posts it. */
  const signInForm = async (startQuery = '') => {
    const jar = new CookieJar();
    const page = await jar.follow(`${server.baseUrl}/auth/start${startQuery}`);
    const action = /action="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    return (email: string, password: string) =>
      fetch(new URL(action, server.baseUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
  };
  const attemptRows = () => server.database.db.selectFrom('sign_in_attempts').selectAll().execute();

  it('answers the attempt after the limit with 429 and a translated page, even with the right password', async () => {
    const post = await signInForm('?ui_locales=de');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await post('admin@acme.example', `wrong-${attempt}`)).status).toBe(401);
    }
    const refused = await post('admin@acme.example', 'admin');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.headers.get('content-type')).toContain('text/html');
    const page = await refused.text();
    expect(page).toContain(`<p role="alert">${IDP_MESSAGES.de.signIn.tooManyAttempts}</p>`);
    expect(page).toContain('<html lang="de"');
    // The address typed is kept, the password is not.
    expect(page).toContain('value="admin@acme.example"');

    // Another address from the same client is not affected.
    expect((await post('user@acme.example', 'wrong')).status).toBe(401);

    // After the window, the right password signs in.
    await sleep(WINDOW_SECONDS * 1000 + 200);
    const accepted = await post('admin@acme.example', 'admin');
    expect(accepted.status).toBe(303);
  });

  it('counts the same address in any letter case and with spaces around it', async () => {
    const post = await signInForm();
    for (const email of ['Admin@Globex.example', ' admin@globex.example', 'ADMIN@GLOBEX.EXAMPLE ']) {
      expect((await post(email, 'wrong')).status).toBe(401);
    }
    expect((await post('admin@globex.example', 'admin')).status).toBe(429);
    await sleep(WINDOW_SECONDS * 1000 + 200);
  });

  it('starts the count again after a successful sign-in', async () => {
    const post = await signInForm();
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect((await post('user@acme.example', 'wrong')).status).toBe(401);
    }
    expect((await post('user@acme.example', 'user')).status).toBe(303);
    const again = await signInForm();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await again('user@acme.example', 'wrong')).status).toBe(401);
    }
    expect((await again('user@acme.example', 'wrong')).status).toBe(429);
    await sleep(WINDOW_SECONDS * 1000 + 200);
  });

  it('lets no more than the limit through when the attempts arrive at once', async () => {
    const post = await signInForm();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => post('admin@acme.example', 'wrong')));
    expect(statuses.filter((r) => r.status === 401)).toHaveLength(MAX_ATTEMPTS);
    expect(statuses.filter((r) => r.status === 429)).toHaveLength(10 - MAX_ATTEMPTS);
  });

  it('keeps the count in the database, without the e-mail or client address in clear', async () => {
    const rows = await attemptRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.key).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toMatch(/example|127\.0\.0\.1/);
    }
  });
});
