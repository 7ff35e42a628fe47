// The Users page drawn by the server (issue 6; apps/web/src/entry-server.tsx, plugins/web-app.ts):
// against the page's server build as `npm run build` writes it, which `npm test` runs first.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { userListDocumentSchema } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const webRoot = path.resolve(import.meta.dirname, '../../web');
const serverBuild = path.join(webRoot, 'dist-server/entry-server.js');

/** The drawn rows' e-mail addresses, in order (the title of each row's address line). */
function drawnEmails(html: string): string[] {
  const root = html.slice(html.indexOf('<div id="root"'));
  return [...root.matchAll(/<p title="([^"]*)" class="[^"]*UsersTable-secondLine/g)].map(([, email = '']) => email);
}

/** What the HTML says of the text `&`, `<`, `>` and `"` become in it. */
const inHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('the Users page drawn by the server', () => {
  let server: TestServer;
  let acmeAdmin: CookieJar;
  let acmeUser: CookieJar;
  let globexAdmin: CookieJar;

  const page = (jar: CookieJar | undefined, address = '/') =>
    fetch(`${server.baseUrl}${address}`, {
      headers: { accept: 'text/html', ...(jar ? { cookie: jar.header() } : {}) },
    });
  const apiEmails = async (jar: CookieJar, orgId: string, query: string) => {
    const response = await fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query}`, {
      headers: { cookie: jar.header() },
    });
    return userListDocumentSchema.parse(await response.json()).data.map((user) => user.attributes.email);
  };

  beforeAll(async () => {
    if (!existsSync(serverBuild)) throw new Error(`${serverBuild} is missing: run \`npm run build\` first`);
    server = await startTestServer({ WEB_DIST: path.join(webRoot, 'dist'), SERVER_RENDERING: 'true' });
    acmeAdmin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
    acmeUser = (await signIn(server.baseUrl, 'user@acme.example', 'user')).jar;
    globexAdmin = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar;
  });
  afterAll(() => server?.close());

  it("draws an administrator's first page: the same users, in the same order, as the list call answers", async () => {
    const response = await page(acmeAdmin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    // It holds the organisation's users: no cache may keep it.
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toMatch(/<div id="root" data-server-rendered inert>/);
    const emails = drawnEmails(html);
    expect(emails).toHaveLength(25);
    expect(emails).toEqual((await apiEmails(acmeAdmin, DEMO_ORGS.acme.id, '')).map(inHtml));
    expect(html).toContain('1–25 of 423');
  });

  it("draws the address's search, filters, sort and page, as the page reads them", async () => {
    const html = await (await page(acmeAdmin, '/?search=a&status=active&sort=-name&page=2&pageSize=50')).text();
    const expected = await apiEmails(
      acmeAdmin,
      DEMO_ORGS.acme.id,
      '?filter%5Bquery%5D=a&filter%5Bstatus%5D=active&sort=-name&page%5Bnumber%5D=2&page%5Bsize%5D=50',
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(drawnEmails(html)).toEqual(expected.map(inHtml));
  });

  it("draws a page in the session's language, with the document's language and title", async () => {
    const html = await (await page(globexAdmin)).text();
    expect(html).toMatch(/^<!doctype html>\s*<html lang="de">/i);
    expect(html).toContain('<title>Benutzer</title>');
    expect(drawnEmails(html)).toEqual((await apiEmails(globexAdmin, DEMO_ORGS.globex.id, '')).map(inHtml));
  });

  it('sends the plain page when there is no session, or the session may not list users', async () => {
    for (const jar of [undefined, acmeUser]) {
      const response = await page(jar);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('data-server-rendered');
    }
  });

  it('draws nothing but the Users page: other routes get the plain page', async () => {
    for (const address of ['/logout', '/oidc/callback?code=x', '/elsewhere']) {
      const html = await (await page(acmeAdmin, address)).text();
      expect(html, address).toContain('<div id="root"></div>');
    }
  });

  it('takes any address the page takes: values it does not know are read as the page reads them', async () => {
    for (const address of [
      '/?page=abc&pageSize=1000&sort=evil&status=nobody&isSystemAdmin=maybe',
      `/?search=${'%25_%5C'.repeat(100)}`,
      '/?page=99999',
      '/?search=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    ]) {
      const response = await page(acmeAdmin, address);
      expect(response.status, address).toBe(200);
      const html = await response.text();
      expect(html, address).toContain('<div id="root"');
      expect(html, address).not.toContain('<script>alert(1)</script>');
    }
  });

  it('escapes what users wrote: a name that is markup is drawn as text', async () => {
    const name = '<img src=x onerror=alert(1)> "Bobby" & co';
    await server.database.db.updateTable('users').set({ name }).where('email', '=', 'admin@acme.example').execute();
    const html = await (await page(acmeAdmin, '/?search=admin%40acme')).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(inHtml(name));
  });
});

describe('the Users page with server drawing turned off', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('is always the plain page (SERVER_RENDERING=false)', async () => {
    server = await startTestServer({ WEB_DIST: path.join(webRoot, 'dist'), SERVER_RENDERING: 'false' });
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    const response = await fetch(`${server.baseUrl}/`, { headers: { cookie: jar.header() } });
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<div id="root"></div>');
  });
});
