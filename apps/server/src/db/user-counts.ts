import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The groups whose kept count differs from the users, in one statement: one snapshot of both tables. */
const differingGroups = sql<{ org_id: string }>`
  select coalesce(u.org_id, c.org_id) as org_id
  from (select org_id, status, is_system_admin, is_external, count(*) as n from users group by 1, 2, 3, 4) u
  full join (select * from user_counts where n <> 0) c using (org_id, status, is_system_admin, is_external)
  where u.n is distinct from c.n`;

/**
 * Checks the kept counts (`user_counts`) against the users and counts again the organisations where
 * they differ. The triggers keep them in every write; what bypasses triggers (a restore with
 * triggers disabled, `session_replication_role = replica`, a partition truncated alone) is found
 * here at start-up. Returns the organisations repaired.
 */
export async function repairUserCounts(db: Db): Promise<string[]> {
  const { rows } = await differingGroups.execute(db);
  if (rows.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    // Writers wait while the counts are made again, so that none is lost in between.
    await sql`lock table users in share mode`.execute(tx);
    const orgIds = [...new Set((await differingGroups.execute(tx)).rows.map((row) => row.org_id))];
    if (orgIds.length === 0) return [];
    await tx.deleteFrom('user_counts').where('org_id', 'in', orgIds).execute();
    await sql`insert into user_counts (org_id, status, is_system_admin, is_external, n)
      select org_id, status, is_system_admin, is_external, count(*) from users
      where org_id = any(${orgIds}::uuid[]) group by 1, 2, 3, 4`.execute(tx);
    return orgIds;
  });
}
