import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { DEMO_ORGS } from '../src/db/seed.ts';
import { demoDataFolder } from './support/demo-template.ts';
import { killProcess, type ServerProcess, spawnNode, spawnServer } from './support/server-process.ts';
import { signIn } from './support/sign-in.ts';

const ACME_USERS = `/apis/accounts/api/v3/orgs/${DEMO_ORGS.acme.id}/users`;

const totalOf = async (response: Response) => ((await response.json()) as { meta: { total_count: number } }).meta;

/**
 * The embedded database after `kill -9`: the process killed while it seeds or serves leaves a data
 * folder that the next start opens with every committed row, and no manual step.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('embedded database after SIGKILL', () => {
  const dataDirs: string[] = [];
  let running: ServerProcess | undefined;
  // The demo, loaded from the tests' template rather than migrated and seeded by a first start.
  const freshDataDir = async () => {
    const dataDir = await demoDataFolder('users-admin-crash-');
    dataDirs.push(dataDir);
    return dataDir;
  };
  afterAll(async () => {
    await killProcess(running);
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts after a kill in the middle of serving, with the signed-in sessions still valid', async () => {
    const dataDir = await freshDataDir();
    running = await spawnServer({ DATA_DIR: dataDir });
    const server = running;
    const acme = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar.header();
    const globex = (await signIn(server.baseUrl, 'admin@globex.example', 'admin')).jar.header();

    // Killed with requests in flight: lists, session lookups and a sign-in writing its rows.
    const inFlight = [
      ...Array.from({ length: 30 }, (_, i) =>
        fetch(`${server.baseUrl}${ACME_USERS}?page%5Bnumber%5D=${(i % 10) + 1}&sort=name`, {
          headers: { cookie: acme },
        }),
      ),
      ...Array.from({ length: 10 }, () =>
        fetch(`${server.baseUrl}/apis/oidc/userinfo`, { headers: { cookie: globex } }),
      ),
      signIn(server.baseUrl, 'pat@partners.example', 'pat'),
    ].map((p) => p.then(() => 'answered').catch(() => 'cut off'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await Promise.all(inFlight);

    running = await spawnServer({ DATA_DIR: dataDir });
    const again = running;
    for (const cookie of [acme, globex]) {
      expect((await fetch(`${again.baseUrl}/apis/oidc/userinfo`, { headers: { cookie } })).status).toBe(200);
    }
    const list = await fetch(`${again.baseUrl}${ACME_USERS}`, { headers: { cookie: acme } });
    expect(list.status).toBe(200);
    expect((await totalOf(list)).total_count).toBe(423);
    again.child.kill('SIGTERM');
    expect((await again.exited).code, again.stdout() + again.stderr()).toBe(0);
  }, 90_000);

  it('restarts after the seed command is killed half-way, every committed batch intact and counted', async () => {
    const dataDir = await freshDataDir();
    const seeding = await spawnNode(['apps/server/src/db/seed-cli.ts', '--users', '500000', '--name', 'Killed'], {
      DATA_DIR: dataDir,
    });
    // Killed once at least two batches of 5,000 users are committed, in the middle of the next ones.
    const started = performance.now();
    const committed = () =>
      Math.max(
        0,
        ...[...seeding.stderr().matchAll(/([\d,]+) \/ 500,000 users/g)].map((m) => Number(m[1]?.replace(/,/g, ''))),
      );
    while (committed() < 10_000) {
      if (seeding.child.exitCode !== null || performance.now() - started > 60_000) {
        throw new Error(`the seed command did not get going:\n${seeding.stderr()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    seeding.child.kill('SIGKILL');
    expect((await seeding.exited).signal).toBe('SIGKILL');

    running = await spawnServer({ DATA_DIR: dataDir });
    const server = running;
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    const acme = (await signIn(server.baseUrl, 'admin@acme.example', 'admin')).jar.header();
    const list = await fetch(`${server.baseUrl}${ACME_USERS}?filter%5Bstatus%5D=active`, { headers: { cookie: acme } });
    expect(list.status).toBe(200);
    await list.arrayBuffer();
    server.child.kill('SIGTERM');
    expect((await server.exited).code, server.stdout() + server.stderr()).toBe(0);

    // The rows, as the database holds them: the demo intact, the killed organisation's committed
    // batches whole, and every kept count equal to the rows it counts (the triggers' transactions).
    const database = await openDatabase({ dataDir });
    try {
      const rows = await sql<{ name: string; users: number; counted: number }>`
        select o.name,
               (select count(*) from users u where u.org_id = o.id)::int as users,
               coalesce((select sum(n) from user_counts c where c.org_id = o.id), 0)::int as counted
        from organizations o order by o.name`.execute(database.db);
      const byName = Object.fromEntries(rows.rows.map((row) => [row.name, row]));
      expect(byName.Acme?.users).toBe(423);
      expect(byName.Globex?.users).toBe(62);
      const killed = byName.Killed;
      expect(killed).toBeDefined();
      expect(killed?.users).toBeGreaterThanOrEqual(10_000);
      expect(killed?.users).toBeLessThan(500_000);
      expect((killed?.users ?? 1) % 5000).toBe(0);
      for (const row of rows.rows) expect(row.counted, row.name).toBe(row.users);
      const breakdown = await sql<{ mismatches: number }>`
        select count(*)::int as mismatches from (
          select org_id, status, is_system_admin, is_external, count(*) as n from users group by 1, 2, 3, 4
        ) actual full join user_counts kept using (org_id, status, is_system_admin, is_external)
        where coalesce(actual.n, 0) <> coalesce(kept.n, 0)`.execute(database.db);
      expect(breakdown.rows[0]?.mismatches).toBe(0);
    } finally {
      await database.close();
    }
  }, 120_000);
});
