import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { exportPath, usersPath } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { type RawAnswer, sendRaw as send } from './support/raw-request.ts';
import { type CookieJar, signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const decoded = (answer: RawAnswer) => {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return gunzipSync(answer.body).toString();
  return answer.body.toString();
};

describe('compressed answers', () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'users-admin-web-dist-'));
  const page = `<!doctype html><html><head></head><body>${'<p>Users</p>'.repeat(500)}</body></html>`;
  writeFileSync(path.join(dist, 'index.html'), page);
  // A built file too small to have compressed copies (apps/web/build/precompressed-assets.ts).
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'assets/small-abc123.js'),
    `export const small = ${JSON.stringify('x'.repeat(300))};\n`,
  );
  let server: TestServer;
  let admin: CookieJar;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST: dist });
    admin = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the JSON list as Brotli, gzip or as it is, by Accept-Encoding', async () => {
    const url = `${server.baseUrl}${usersPath(DEMO_ORGS.acme.id)}?page[size]=100`;
    const sizes: Record<string, number> = {};
    for (const [accepted, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const answer = await send(url, { cookie: admin.header(), 'accept-encoding': accepted });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(expected);
      if (expected) expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect((JSON.parse(decoded(answer)) as { data: unknown[] }).data).toHaveLength(100);
      sizes[accepted] = answer.body.length;
    }
    expect(sizes['gzip, deflate, br']).toBeLessThan((sizes.identity ?? 0) / 3);
  });

  it('compresses the page and the CSV export, and leaves small answers as they are', async () => {
    const html = await send(`${server.baseUrl}/`, { 'accept-encoding': 'br' });
    expect(html.headers['content-encoding']).toBe('br');
    expect(decoded(html).split('<p>Users</p>')).toHaveLength(501);
    const csv = await send(
      `${server.baseUrl}${exportPath(DEMO_ORGS.acme.id)}`,
      { cookie: admin.header(), 'accept-encoding': 'gzip', 'content-type': 'application/json' },
      JSON.stringify({
        columns: [{ key: 'email', header: 'Email' }],
        values: {
          platform: 'p',
          third_party: 't',
          active: 'a',
          inactive: 'i',
          pending: 'p',
          disabled: 'd',
          system_admin: 's',
          user: 'u',
          never: 'n',
        },
      }),
    );
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(decoded(csv).split('\n').length).toBeGreaterThan(400);
    const small = await send(`${server.baseUrl}/healthz`, { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    const builtFile = await send(`${server.baseUrl}/assets/small-abc123.js`, { 'accept-encoding': 'br' });
    expect(builtFile.status).toBe(200);
    expect(builtFile.headers['content-encoding']).toBeUndefined();
  });
});
