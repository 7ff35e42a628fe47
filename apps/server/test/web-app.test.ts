import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from './support/raw-request.ts';
import { signIn } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const getRaw = (url: string, acceptEncoding: string) => sendRaw(url, { 'accept-encoding': acceptEncoding });

// A build as `npm run build` writes it (apps/web/build/precompressed-assets.ts): the HTML shell, and
// each script with its Brotli and gzip copies beside it.
const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `user ${i}`))};\n`;
const dist = mkdtempSync(path.join(os.tmpdir(), 'users-admin-web-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
);
writeFileSync(path.join(dist, 'assets/index-abc123.js'), script);
writeFileSync(path.join(dist, 'assets/index-abc123.js.br'), brotliCompressSync(script));
writeFileSync(path.join(dist, 'assets/index-abc123.js.gz'), gzipSync(script));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEB_DIST: dist });
});
afterAll(async () => {
  await server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the built page's files", () => {
  const url = () => `${server.baseUrl}/assets/index-abc123.js`;

  it('are sent as their Brotli copy to a browser that takes Brotli', async () => {
    const response = await getRaw(url(), 'gzip, deflate, br, zstd');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.body).toString()).toBe(script);
    expect(response.body.length).toBeLessThan(script.length / 3);
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('are sent as their gzip copy to a client that takes only gzip', async () => {
    const response = await getRaw(url(), 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.body).toString()).toBe(script);
  });

  it('are sent as they are to a client that takes no compression', async () => {
    const response = await getRaw(url(), 'identity');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toBe(script);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A shared cache must not hand this answer to a browser that takes Brotli, nor the reverse.
    expect(response.headers.vary).toMatch(/accept-encoding/i);
  });
});

describe("the page's HTML", () => {
  it('is the same plain shell, signed in or not: the browser draws the page, no user is in it', async () => {
    const { jar } = await signIn(server.baseUrl, 'admin@acme.example', 'admin');
    for (const cookie of [undefined, jar.header()]) {
      for (const address of ['/', '/?search=admin&page=2', '/logout']) {
        const response = await fetch(`${server.baseUrl}${address}`, { headers: cookie ? { cookie } : {} });
        expect(response.status, address).toBe(200);
        expect(response.headers.get('cache-control'), address).toBe('no-cache');
        const html = await response.text();
        expect(html, address).toContain('<div id="root"></div>');
        expect(html, address).not.toContain('@acme.example');
      }
    }
  });
});
