import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { demoDataFolder } from './support/demo-template.ts';
import { killProcess, type ServerProcess, spawnServer } from './support/server-process.ts';
import { signIn } from './support/sign-in.ts';

/** A GET on a connection of its own (no keep-alive), answering its status and body. */
function get(url: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { cookie } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** SIGTERM, as an orchestrator stops a container: what was asked is answered, nothing new is taken. */
describe.skipIf(process.env.TEST_DATABASE_URL)('graceful shutdown on SIGTERM', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dataDir = await demoDataFolder('users-admin-shutdown-');
  });
  afterAll(async () => {
    await killProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the requests in flight, refuses new connections, closes the database and exits 0', async () => {
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const running = server;
    const { baseUrl } = running;
    const port = Number(new URL(baseUrl).port);
    const cookie = (await signIn(baseUrl, 'admin@acme.example', 'admin')).jar.header();
    const users = `${baseUrl}/apis/accounts/api/v3/orgs/${DEMO_ORGS.acme.id}/users`;
    const incoming = () =>
      running
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"incoming request"')).length;

    // A slow client: a page view whose body arrives in two parts, the second after SIGTERM.
    const body = JSON.stringify({ path: '/users', title: 'Users', viewedAt: new Date().toISOString() });
    const slow = request(`${baseUrl}/apis/monitoring/page-views`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) },
    });
    const slowAnswer = new Promise<number>((resolve, reject) => {
      slow.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      slow.on('error', reject);
    });
    const before = incoming();
    slow.write(body.slice(0, 10));
    await until(() => incoming() > before, 20_000, 'the slow request reached the server');

    // Twenty list requests, each on its own connection; SIGTERM once the server has them all.
    const listed = incoming();
    const lists = Array.from({ length: 20 }, (_, i) =>
      get(`${users}?page%5Bnumber%5D=${(i % 5) + 1}&sort=name`, cookie),
    );
    await until(() => incoming() >= listed + 20, 30_000, 'the twenty list requests reached the server');
    running.child.kill('SIGTERM');

    // New connections are refused while the slow request is still open.
    await until(() => refused(port), 10_000, 'new connections refused');
    let slowDone = false;
    void slowAnswer.then(() => {
      slowDone = true;
    });
    expect(slowDone).toBe(false);
    expect(running.child.exitCode).toBeNull();

    // Every list request in flight is answered in full.
    for (const answer of await Promise.all(lists)) {
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { data: unknown[] }).data).toHaveLength(25);
    }
    // The slow client finishes, a second later, and is answered.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(running.child.exitCode).toBeNull();
    slow.end(body.slice(10));
    expect(await slowAnswer).toBe(204);

    const exit = await running.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(running.stdout()).toContain('database closed; exiting');

    // The next start on the same folder is clean, and the session signed in before is still valid.
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const again = await fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie } });
    expect(again.status).toBe(200);
    expect(server.stdout() + server.stderr()).not.toMatch(/recover|error/i);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 120_000);
});
