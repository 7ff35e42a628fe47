import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '../src/db/database.ts';
import { insertUsers, seedOrganization } from '../src/db/seed.ts';
import { repairUserCounts } from '../src/db/user-counts.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { demoDataFolder, demoTemplate } from './support/demo-template.ts';
import { spawnServer } from './support/server-process.ts';
import { createScratchDatabase } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

/** Groups whose kept count (by filter values, and by filter values and day of last sign-in) differs from a count of the users. */
async function mismatches(db: Db) {
  const { rows } = await sql`
    select org_id, actual.n as counted, kept.n as kept from (select org_id, status, is_system_admin, is_external, count(*) as n from users group by 1, 2, 3, 4) actual
    full join (select * from user_counts where n <> 0) kept using (org_id, status, is_system_admin, is_external)
    where actual.n is distinct from kept.n
    union all
    select org_id, actual.n, kept.n from (
      select org_id, status, is_system_admin, is_external, count(*) as n,
        coalesce((last_sign_in_at at time zone 'UTC')::date, '-infinity') as day
      from users group by 1, 2, 3, 4, 6
    ) actual
    full join (select * from sign_in_counts where n <> 0) kept using (org_id, status, is_system_admin, is_external, day)
    where actual.n is distinct from kept.n`.execute(db);
  return rows;
}

describe('the kept user counts', () => {
  let database: DatabaseHandle;
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  let org: string;

  beforeAll(async () => {
    scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase(process.env.TEST_DATABASE_URL) : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://' });
    org = await seedOrganization(database.db, { name: 'Counted', slug: 'counted', users: 2000, seed: 5 });
  });
  afterAll(async () => {
    await database.close();
    await scratch?.drop();
  });

  it('stay exact through inserts, updates of every counted column, and deletes, in one statement or many', async () => {
    const { db } = database;
    await insertUsers(db, [userRow(org, 'One', 'one@counted.example', { is_external: true })]);
    await sql`update users set status = 'disabled' where org_id = ${org} and status = 'pending'`.execute(db);
    await sql`update users set is_system_admin = not is_system_admin, is_external = not is_external
      where org_id = ${org} and name like 'A%'`.execute(db);
    await sql`update users set name = name || ' ' where org_id = ${org} and name like 'B%'`.execute(db);
    // Sign-ins: today, a day long ago, a first one, and back to never.
    await sql`update users set last_sign_in_at = now() where org_id = ${org} and name like 'C%'`.execute(db);
    const longAgo = '2020-02-29T23:59:59Z';
    await sql`update users set last_sign_in_at = ${longAgo} where org_id = ${org} and name like 'D%'`.execute(db);
    await sql`update users set last_sign_in_at = null where org_id = ${org} and name like 'E%'`.execute(db);
    await sql`delete from users where org_id = ${org} and status = 'inactive' and is_system_admin`.execute(db);
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < 20; i++) {
        await sql`update users set status = 'pending' where org_id = ${org}
          and id = (select id from users where org_id = ${org} and status = 'active' limit 1)`.execute(tx);
      }
    });
    expect(await mismatches(db)).toEqual([]);
  });

  it('are emptied with the users by TRUNCATE', async () => {
    const own = await openDatabase({ dataDir: 'memory://', loadDataDir: await demoTemplate() });
    try {
      const orgId = await seedOrganization(own.db, { name: 'T', slug: 't', users: 300 });
      expect(await mismatches(own.db)).toEqual([]);
      await sql`truncate users`.execute(own.db);
      expect(await mismatches(own.db)).toEqual([]);
      await insertUsers(own.db, [userRow(orgId, 'After', 'after@t.example')]);
      expect(await mismatches(own.db)).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('are found wrong after writes that bypass the triggers, and counted again for those organisations only', async () => {
    const { db } = database;
    const other = uuidv7();
    await db.insertInto('organizations').values({ id: other, name: 'Untouched', slug: 'untouched' }).execute();
    await insertUsers(db, [userRow(other, 'Stays', 'stays@untouched.example')]);
    // As a logical-replication apply worker or a restore with triggers disabled writes.
    await db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await insertUsers(tx, [userRow(org, 'Bypass', 'bypass@counted.example')]);
      await sql`update users set status = 'inactive' where org_id = ${org} and status = 'active'
        and id in (select id from users where org_id = ${org} and status = 'active' limit 5)`.execute(tx);
    });
    expect((await mismatches(db)).length).toBeGreaterThan(0);
    expect(await repairUserCounts(db)).toEqual([org]);
    expect(await mismatches(db)).toEqual([]);
    expect(await repairUserCounts(db)).toEqual([]);
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'are repaired by the server at start-up, which says so in its log',
    async () => {
      const dataDir = await demoDataFolder('users-admin-repair-');
      try {
        const broken = await openDatabase({ dataDir });
        const orgId = await seedOrganization(broken.db, { name: 'Broken', slug: 'broken', users: 100 });
        await sql`delete from user_counts where org_id = ${orgId}`.execute(broken.db);
        await sql`update sign_in_counts set n = n + 1 where org_id = ${orgId}`.execute(broken.db);
        await broken.close();
        const server = await spawnServer({ DATA_DIR: dataDir });
        const said = /user counts differed from the users in 1 organisation/;
        // A start on a loaded machine may take many seconds: wait for the line, not for a time.
        await expect.poll(() => server.stdout(), { timeout: 45_000 }).toMatch(said);
        server.child.kill('SIGTERM');
        await server.exited;
        const repaired = await openDatabase({ dataDir });
        expect(await mismatches(repaired.db)).toEqual([]);
        await repaired.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
