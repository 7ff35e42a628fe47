import { sql } from 'kysely';
import { countHeavySearchesInBuckets } from './bucket-searches.ts';
import type { Db } from './database.ts';
import { HEAVY_SEARCHES_FROM, HeavySearchTally, keepHeavySearches, MAX_HEAVY_SEARCHES } from './heavy-searches.ts';
import { buildPartGrams } from './part-grams.ts';
import type { Database, UserRow } from './schema.ts';
import { forEachUserChunk, GramTally, insertGrams, insertSpans } from './search-grams.ts';

/**
 * Recomputes everything the triggers keep for an organisation from its users: the counts per status
 * and user type (`user_counts`), the grams and domain keys (`user_search_grams`), the counts of its
 * kept searches (`user_kept_searches`), its page buckets (`user_page_buckets`) and the parts of
 * each order with their 1–3 character grams (`user_part_grams`, cut again), and keeps its
 * heavy searches as a load does (an organisation that grew by writes has its heavy searches found
 * here: run it from time to time); ends a bulk load's pending mark (a loader that was killed), and
 * moves the data version on, so that no cached count or search list outlives the repair. For
 * when the triggers were bypassed: `TRUNCATE users`, a restore with triggers disabled, a killed
 * bulk load. Writers of the users table wait while it runs (a share lock on the table), but for
 * its last step, which, in an organisation too small for parts, counts the densest heavy searches
 * per page bucket as a load does.
 */
export async function recountOrganization(
  db: Db,
  orgId: string,
  options: { heavySearchesFrom?: number; bucketSearchesFrom?: number; partUsers?: number } = {},
): Promise<void> {
  const { parts } = await db.transaction().execute(async (tx) => {
    await sql`lock table users in share mode`.execute(tx);
    await tx.deleteFrom('user_counts').where('org_id', '=', orgId).execute();
    await sql`
      insert into user_counts (org_id, status, is_system_admin, n)
      select org_id, status, is_system_admin, count(*) from users where org_id = ${orgId}
      group by 1, 2, 3 order by 1, 2, 3`.execute(tx);

    await tx.deleteFrom('user_search_grams').where('org_id', '=', orgId).execute();
    await tx.deleteFrom('user_search_spans').where('org_id', '=', orgId).execute();
    const grams = new GramTally();
    const heavy = new HeavySearchTally();
    type Row = Pick<UserRow, 'org_id' | 'id' | 'search_text' | 'status' | 'is_system_admin' | 'sort_name'>;
    await forEachUserChunk<Row, Database>(
      tx,
      { columns: ['search_text', 'status', 'is_system_admin', 'sort_name'], where: sql<boolean>`org_id = ${orgId}` },
      (rows) => {
        for (const row of rows) {
          grams.add(row.search_text, row.status, row.is_system_admin, row.sort_name);
          heavy.add(row.search_text, row.status, row.is_system_admin);
        }
      },
    );
    await insertGrams(tx, orgId, grams);
    await insertSpans(tx, orgId, grams);
    await tx.deleteFrom('user_search_grams_pending').where('org_id', '=', orgId).execute();

    await sql`update user_kept_searches set n = 0 where org_id = ${orgId}`.execute(tx);
    await sql`
      insert into user_kept_searches (org_id, search, status, is_system_admin, n)
      select ${orgId}::uuid, s.search, u.status, u.is_system_admin, count(*)
      from (select distinct search from user_kept_searches where org_id = ${orgId}) s
      join users u on u.org_id = ${orgId} and strpos(u.search_text, s.search) > 0
      group by 2, 3, 4 order by 2, 3, 4
      on conflict (org_id, search, status, is_system_admin) do update set n = excluded.n`.execute(tx);
    const threshold = options.heavySearchesFrom ?? HEAVY_SEARCHES_FROM;
    await keepHeavySearches(tx, orgId, heavy.find(grams.totals(), threshold, MAX_HEAVY_SEARCHES));
    await sql`select user_page_buckets_build(${orgId})`.execute(tx);
    const built = await buildPartGrams(
      tx,
      orgId,
      options.partUsers === undefined ? {} : { partUsers: options.partUsers },
    );

    await sql`
      insert into org_data_versions (org_id, version) values (${orgId}, 1)
      on conflict (org_id) do update set version = org_data_versions.version + 1`.execute(tx);
    return built;
  });
  if (parts > 0) {
    // Its heavy searches' deep pages read their counts per part: none per page bucket are kept.
    await db
      .deleteFrom('user_page_bucket_searches')
      .where('org_id', '=', orgId)
      .where('found_at_load', '=', true)
      .execute();
    return;
  }
  // After the lock: each bucket's counts hold for the version they were taken at.
  await countHeavySearchesInBuckets(
    db,
    orgId,
    options.bucketSearchesFrom === undefined ? {} : { from: options.bucketSearchesFrom },
  );
}
