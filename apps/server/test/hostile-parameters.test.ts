import { sign } from '@fastify/cookie';
import { errorDocumentSchema, oauthErrorSchema } from '@users-admin/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { setCookieOf } from './support/auth-flow.ts';
import { HOSTILE_REDIRECTS } from './support/hostile-values.ts';
import { CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Over 300 lines: a table of hostile values for every endpoint, and the tests that walk it.

const SESSION_SECRET = 'hostile-parameters-test-secret-0123456789';
/** Runs per property; HOSTILE_RUNS=1000 for a longer hunt. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 60);

/** SQL and LIKE metacharacters, markup, redirects, numbers, Unicode: values that broke servers before. */
const CRAFTED = [
  "' or '1'='1",
  "'; drop table users; --",
  '" or ""="',
  '%',
  '_',
  '\\',
  '%_\\',
  '%25',
  '%00',
  '\u0000',
  '\u001f',
  '\u202e',
  '\u200b',
  '\ufeff',
  '😀👩‍👩‍👧',
  'ﬁ',
  '\ud800',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '//evil.example',
  'https://evil.example',
  '/\\evil.example',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '{"a":1}',
  '[]',
  '-1',
  '0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '9'.repeat(40),
  '-9223372036854775809',
  'none',
  'login',
  'silent',
  'redirect',
  'true',
  'x'.repeat(3000),
];

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...CRAFTED, ...HOSTILE_REDIRECTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);

/** A parameter name of the endpoint, its array and object forms, or something else. */
const nameOf = (known: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((name) => `${name}[]`) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((name) => `${name}[0]`) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '', '[', 'a[b][c][d]') },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

/** A query string: pairs (names may repeat), encoded, or now and then raw broken escapes. */
const queryOf = (known: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.array(fc.tuple(nameOf(known), value), { maxLength: 6 }).map(encodePairs) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...known), fc.constantFrom('%', '%zz', '%u0041', '%C0%AF', '%E0%80', '&&&', '==', '%%'))
        .map(([name, raw]) => `${encodeURIComponent(name)}=${raw}`),
    },
    // Long query strings, up to what the server accepts (Node's 16 KB of headers).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...known), fc.integer({ min: 1000, max: 15_000 }))
        .map(([name, length]) => `${encodeURIComponent(name)}=${'a'.repeat(length)}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...known), fc.integer({ min: 2, max: 300 }))
        .map(([name, times]) => Array.from({ length: times }, (_, i) => `${encodeURIComponent(name)}=${i}`).join('&')),
    },
  );

/** Lone surrogates cannot be percent-encoded; send what a browser would (U+FFFD). */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => (isPaired(all, i) ? c : '\ufffd'));

function encodePairs(pairs: [string, string][]): string {
  return pairs
    .map(([name, text]) => `${encodeURIComponent(wellFormed(name))}=${encodeURIComponent(wellFormed(text))}`)
    .join('&');
}
function isPaired(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code <= 0xdbff) return (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
  return (text.charCodeAt(index - 1) & 0xfc00) === 0xd800;
}

/** Cookies a client may send: none, garbage, forged, oversized, repeated, and (later) real ones. */
const hostileCookie = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    'sid=',
    'sid=%zz',
    'sid=forged',
    'sid=a.b.c',
    `sid=${encodeURIComponent(sign('not-a-session', SESSION_SECRET))}`,
    `sid=${encodeURIComponent(sign('not-a-session', 'another-secret-0123456789-0123456789'))}`,
    `sid=${'x'.repeat(4000)}`,
    'sid=1; sid=2; sid=3',
    'auth_tx=garbage',
    `auth_tx=${encodeURIComponent(sign('{"state":1}', SESSION_SECRET))}`,
    `auth_tx=${encodeURIComponent(sign('not json', SESSION_SECRET))}`,
    `auth_tx=${encodeURIComponent(sign('{"__proto__":{"silent":true}}', SESSION_SECRET))}`,
    '=; ;;; =x',
    '__proto__=1',
  ),
  fc.string({ maxLength: 40 }).map((text) => `sid=${encodeURIComponent(text)}`),
);

/** Text that must never reach a client: stack traces, SQL, internals. */
const LEAKS =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\bselect\b[^"]{0,80}\bfrom\b|insert into|syntax error|violates|relation "|kysely|pglite|postgres|FST_ERR|TypeError|ReferenceError|SyntaxError/i;

interface Endpoint {
  path: string;
  parameters: string[];
  /** Where a 4xx must be a JSON:API error document (the API), an OAuth error (the session lookup), or a page. */
  errors: 'json-api' | 'oauth' | 'any';
}

const ENDPOINTS: Endpoint[] = [
  { path: '/apis/oidc/userinfo', parameters: ['org_id', 'sub', 'access_token'], errors: 'oauth' },
  {
    path: `/apis/accounts/api/v3/orgs/${DEMO_ORGS.acme.id}/users`,
    parameters: ['page[size]', 'page[number]', 'sort', 'filter[query]', 'filter[status]', 'filter[is_system_admin]'],
    errors: 'json-api',
  },
  {
    path: '/auth/start',
    parameters: ['post_auth_redirect_path', 'callback_mode', 'prompt', 'resource', 'ui_locales'],
    errors: 'any',
  },
  {
    path: '/auth/callback',
    parameters: ['code', 'state', 'error', 'error_description', 'iss', 'session_state'],
    errors: 'any',
  },
  { path: '/auth/logout', parameters: ['ui_locales', 'id_token_hint', 'post_logout_redirect_uri'], errors: 'any' },
  { path: '/app-config.json', parameters: ['callback', 'v'], errors: 'any' },
  { path: '/apis/openapi.json', parameters: ['format', 'v'], errors: 'json-api' },
  {
    path: `/apis/accounts/api/v3/orgs/${DEMO_ORGS.acme.id}/audit-events`,
    parameters: [
      'page[size]',
      'page[number]',
      'filter[user_id]',
      'filter[actor_id]',
      'filter[action]',
      'filter[since]',
    ],
    errors: 'json-api',
  },
];

describe('hostile parameters on every endpoint', () => {
  let server: TestServer;
  let admin: CookieJar;
  let transactionCookie = '';

  beforeAll(async () => {
    server = await startTestServer({ SESSION_SECRET, SIGN_IN_MAX_ATTEMPTS: '1000' });
    admin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    const start = await fetch(`${server.baseUrl}/auth/start`, { redirect: 'manual' });
    transactionCookie = setCookieOf(start, 'auth_tx')?.split(';')[0] ?? '';
  });
  afterAll(() => server.close());

  /** Every answer is a correct 2xx/3xx or a clear 4xx; never a 5xx, a stack trace or SQL. */
  async function expectClearAnswer(response: Response, endpoint: Endpoint, what: string) {
    const body = await response.text();
    expect(response.status, what).toBeLessThan(500);
    expect(body, what).not.toMatch(LEAKS);
    if (response.status === 431 || response.status === 414) return; // Node refused the request line: no body.
    if (response.status >= 400) {
      expect(body.length, `${what}: an error says what went wrong`).toBeGreaterThan(10);
      if (endpoint.errors === 'json-api' || endpoint.path.startsWith('/apis/accounts')) {
        const document = errorDocumentSchema.parse(JSON.parse(body));
        expect(document.errors[0]?.title, what).toBeTruthy();
      } else if (endpoint.errors === 'oauth') {
        expect(oauthErrorSchema.parse(JSON.parse(body)).error, what).toBeTruthy();
      }
    }
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', server.baseUrl);
      expect(location.origin, `${what}: redirects stay on this server`).toBe(server.baseUrl);
    }
  }

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.path}: every answer is a 200, a redirect on this server or a clear 4xx`, async () => {
      const cookies = fc.oneof(
        hostileCookie,
        fc.constant('signed-in'),
        fc.constant('transaction'),
        fc.constant('signed-in+hostile'),
      );
      await fc.assert(
        fc.asyncProperty(queryOf(endpoint.parameters), cookies, async (query, cookie) => {
          const header =
            cookie === 'signed-in'
              ? admin.header()
              : cookie === 'transaction'
                ? transactionCookie
                : cookie === 'signed-in+hostile'
                  ? `${admin.header()}; sid=forged; auth_tx=garbage`
                  : cookie;
          const url = `${server.baseUrl}${endpoint.path}${query ? `?${query}` : ''}`;
          const response = await fetch(url, { redirect: 'manual', headers: header ? { cookie: header } : {} });
          await expectClearAnswer(
            response,
            endpoint,
            `${endpoint.path}?${query.slice(0, 200)} [${cookie.slice(0, 60)}]`,
          );
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('/auth/start only ever keeps a same-origin path to come back to', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...HOSTILE_REDIRECTS), fc.string({ maxLength: 40 })), async (path) => {
        const start = await fetch(
          `${server.baseUrl}/auth/start?post_auth_redirect_path=${encodeURIComponent(wellFormed(path))}`,
          { redirect: 'manual' },
        );
        expect(start.status).toBe(302);
        const raw = decodeURIComponent(setCookieOf(start, 'auth_tx')?.split(';')[0]?.slice('auth_tx='.length) ?? '');
        const [transaction] = JSON.parse(raw.slice(0, raw.lastIndexOf('.'))) as [{ redirectPath: string }];
        expect(transaction.redirectPath.startsWith('/')).toBe(true);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must never come back.
        expect(transaction.redirectPath).not.toMatch(/^[/\\][/\\]|[\u0000-\u001f\\]/);
        expect(new URL(transaction.redirectPath, server.baseUrl).origin).toBe(server.baseUrl);
      }),
      { numRuns: 80 },
    );
  });

  it('the sign-in form takes any body without a 5xx', async () => {
    const form = new CookieJar();
    const page = await form.follow(`${server.baseUrl}/auth/start`);
    const action = new URL(/action="([^"]+)"/.exec(await page.text())?.[1] ?? '', server.baseUrl);
    const body = fc.oneof(
      fc.array(fc.tuple(nameOf(['email', 'password']), value), { maxLength: 5 }).map(encodePairs),
      fc.constantFrom('', 'email', '%zz', 'email[]=a&email[]=b&password=x', `email=${'a'.repeat(20_000)}&password=x`),
    );
    const contentType = fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, async (text, type) => {
        const response = await fetch(action, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: form.header(), 'content-type': type },
          body: text,
        });
        await expectClearAnswer(
          response,
          { path: action.pathname, parameters: [], errors: 'any' },
          `${type} ${text.slice(0, 100)}`,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('answers an address with a control character as a wrong sign-in (NUL once reached PostgreSQL: a 500)', async () => {
    const form = new CookieJar();
    const page = await form.follow(`${server.baseUrl}/auth/start`);
    const action = new URL(/action="([^"]+)"/.exec(await page.text())?.[1] ?? '', server.baseUrl);
    for (const body of [
      'email=%00&password=x',
      'email=admin%40acme.example%00&password=admin',
      'email=%1F&password=%00',
    ]) {
      const response = await fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: form.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(response.status, body).toBe(401);
      expect(await response.text()).toContain('The email or password is not right.');
    }
  });
});
