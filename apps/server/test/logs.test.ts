import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { seedLargeOrganization } from '../src/db/seed-large.ts';
import { killProcess, type ServerProcess, spawnServer } from './support/server-process.ts';
import { signIn } from './support/sign-in.ts';

const PASSWORD = 'Log-Secret-Passw0rd-9f3c';
const SEARCH = 'zebulon-private';

/**
 * The server's own output, as an operator collects it: JSON lines with a request id on every line
 * of a request, and no secret of a sign-in (cookie, password, authorization code, state) anywhere.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('structured logs', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let orgId: string;
  let adminEmail: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-logs-'));
    const database = await openDatabase({ dataDir });
    ({ orgId, adminEmail } = await seedLargeOrganization(database, {
      name: 'Log Test',
      slug: 'log-test',
      users: 40,
      adminFirstName: 'Log',
      adminPassword: PASSWORD,
    }));
    await database.close();
  });

  afterAll(async () => {
    await killProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has a request id on every line of a request and on every answer, and no secrets', async () => {
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', SEED_DEMO: 'false' });
    const { baseUrl } = server;

    // Every address the sign-in visits, to learn the authorization code and state it carried.
    const visited: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      visited.push(String(input));
      return realFetch(input, init);
    };
    let cookie: string;
    try {
      cookie = (await signIn(baseUrl, adminEmail, PASSWORD)).jar.header();
    } finally {
      globalThis.fetch = realFetch;
    }
    const callback = new URL(visited.find((url) => url.includes('/auth/callback?')) ?? '');
    const code = callback.searchParams.get('code') ?? '';
    const state = callback.searchParams.get('state') ?? '';
    expect(code.length).toBeGreaterThan(10);
    const sessionCookie = /(?:^|; )sid=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect(sessionCookie.length).toBeGreaterThan(20);

    const users = `${baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users`;
    const list = await fetch(`${users}?filter%5Bquery%5D=${SEARCH}`, {
      headers: { cookie, 'x-request-id': 'proxy-id.42' },
    });
    expect(list.status).toBe(200);
    // A sane incoming id is kept; anything else is replaced by one of ours.
    expect(list.headers.get('x-request-id')).toBe('proxy-id.42');
    const hostile = await fetch(users, { headers: { cookie, 'x-request-id': `"}{"admin":true ${'x'.repeat(100)}` } });
    const generated = hostile.headers.get('x-request-id') ?? '';
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const userinfo = await fetch(`${baseUrl}/apis/oidc/userinfo`, { headers: { cookie } });
    expect(userinfo.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const idp = await fetch(`${baseUrl}/idp/.well-known/openid-configuration`);
    expect(idp.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await fetch(`${baseUrl}/apis/nothing-here`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    const lines = server.stdout().split('\n').filter(Boolean);
    const records = lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return []; // the start-up banner for people
      }
    });
    const ofRequests = records.filter((record) => 'req' in record || 'res' in record || 'reqId' in record);
    expect(ofRequests.length).toBeGreaterThan(10);
    for (const record of ofRequests) expect(record.reqId, JSON.stringify(record)).toEqual(expect.any(String));
    const ids = new Set(ofRequests.map((record) => record.reqId));
    expect(ids).toContain('proxy-id.42');
    expect(ids).toContain(generated);
    // The callback was logged, without its code and state.
    const callbackLine = lines.find((line) => line.includes('/auth/callback?'));
    expect(callbackLine).toContain('code=[redacted]');

    const everything = `${server.stdout()}\n${server.stderr()}`;
    for (const secret of [sessionCookie, decodeURIComponent(sessionCookie), PASSWORD, code, state, SEARCH, 'sid=']) {
      expect(everything.includes(secret), `the logs contain ${secret}`).toBe(false);
    }
  }, 120_000);
});
