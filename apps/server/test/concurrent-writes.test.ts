import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createScratchDatabase } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

// Concurrent writers need a server with more than one connection: PostgreSQL only (PGlite serves
// one connection at a time).
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('writers of one organisation at the same time', () => {
  let scratch: { url: string; drop(): Promise<void> };
  let database: DatabaseHandle;
  const org = uuidv7();
  const users = (['active', 'pending'] as const).map((status) =>
    userRow(org, `Writer ${status}`, `${status}@writers.example`, { status }),
  );

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl ?? '');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    await database.db.insertInto('organizations').values({ id: org, name: 'Writers', slug: 'writers' }).execute();
    await insertUsers(database.db, users);
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('moves users between statuses in opposite directions without deadlocks, and the counts stay exact', async () => {
    // Each writer flips its own user between active and pending, so the two lock the same count
    // rows in opposite directions. With the locks taken unordered, PostgreSQL ended one of them
    // with a deadlock about once a second.
    const writer = async (id: string) => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      let deadlocks = 0;
      let writes = 0;
      try {
        const until = Date.now() + 3000;
        while (Date.now() < until) {
          try {
            await client.query(
              `update users set status = case status when 'active' then 'pending' else 'active' end
               where org_id = $1 and id = $2`,
              [org, id],
            );
            writes++;
          } catch (error) {
            if ((error as { code?: string }).code !== '40P01') throw error;
            deadlocks++;
          }
        }
      } finally {
        await client.end();
      }
      return { deadlocks, writes };
    };
    const results = await Promise.all(users.flatMap((user) => [writer(user.id), writer(user.id)]));
    expect(results.map((result) => result.deadlocks)).toEqual([0, 0, 0, 0]);
    expect(Math.min(...results.map((result) => result.writes))).toBeGreaterThan(50);

    const mismatches = await sql`
      select coalesce(c.status, a.status) as status, c.n as kept, a.n as actual
      from (select * from user_counts where org_id = ${org}) c
      full join (select status, is_system_admin, is_external, count(*) as n from users where org_id = ${org} group by 1, 2, 3) a
        using (status, is_system_admin, is_external)
      where coalesce(c.n, 0) <> coalesce(a.n, 0)`.execute(database.db);
    expect(mismatches.rows).toEqual([]);
  }, 30_000);
});
