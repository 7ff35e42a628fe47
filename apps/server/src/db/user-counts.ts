import { type RawBuilder, sql } from 'kysely';
import type { Db } from './database.ts';

/** The kept counts and the columns each groups the users by, after the organisation. */
const KEPT_COUNTS = [
  {
    table: 'user_counts',
    key: sql`org_id, status, is_system_admin, is_external`,
    groups: sql`status, is_system_admin, is_external`,
  },
  {
    table: 'sign_in_counts',
    key: sql`org_id, status, is_system_admin, is_external, day`,
    groups: sql`status, is_system_admin, is_external, sign_in_day(last_sign_in_at) as day`,
  },
] as const;

/** The organisations where a kept count differs from the users, in one statement: one snapshot of the tables. */
function differingOrganizations(): RawBuilder<{ org_id: string }> {
  const differing = KEPT_COUNTS.map(
    ({ table, key, groups }) => sql`
      select coalesce(u.org_id, c.org_id) as org_id
      from (select org_id, ${groups}, count(*) as n from users group by ${key}) u
      full join (select * from ${sql.table(table)} where n <> 0) c using (${key})
      where u.n is distinct from c.n`,
  );
  return sql`select distinct org_id from (${sql.join(differing, sql` union all `)}) d`;
}

/**
 * Checks the kept counts (`user_counts`, `sign_in_counts`) against the users and counts again the
 * organisations where they differ. The triggers keep them in every write; what bypasses triggers
 * (a restore with triggers disabled, `session_replication_role = replica`, a partition truncated
 * alone) is found here at start-up. Returns the organisations repaired.
 */
export async function repairUserCounts(db: Db): Promise<string[]> {
  const { rows } = await differingOrganizations().execute(db);
  if (rows.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    // Writers wait while the counts are made again, so that none is lost in between.
    await sql`lock table users in share mode`.execute(tx);
    const orgIds = (await differingOrganizations().execute(tx)).rows.map((row) => row.org_id);
    if (orgIds.length === 0) return [];
    for (const { table, key, groups } of KEPT_COUNTS) {
      await tx.deleteFrom(table).where('org_id', 'in', orgIds).execute();
      await sql`insert into ${sql.table(table)} (${key}, n)
        select org_id, ${groups}, count(*) from users
        where org_id = any(${orgIds}::uuid[]) group by ${key}`.execute(tx);
    }
    return orgIds;
  });
}
