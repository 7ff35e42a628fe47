import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * A heavy search that more users hold than a kept list of matches holds (50,000, the repository's
 * `MAX_LISTED_MATCHES`) reads its deep pages from its counts per page bucket: a load counts them.
 */
export const LOAD_BUCKET_SEARCHES_FROM = 50_000;
/** At most this many of an organisation's densest heavy searches are counted per bucket at a load. */
export const MAX_LOAD_BUCKET_SEARCHES = 8;
/** Buckets counted in one statement at a load (about 1,000 users each). */
const BUCKETS_AT_ONCE = 100;

/**
 * Counts a search in the page buckets of one order whose ids are `ids`, for their present version
 * (migration 0014), and returns their counts by id: the users of a bucket are the next `n` users
 * from its key, so each is an index-only walk of about 1,000 entries; `added` when a bucket had no
 * counts of the search before (not only older ones). `atLoad` marks them as a load's (0022), kept
 * beyond the organisation's limit of searches; a later count keeps that mark.
 */
export async function countSearchInBuckets(
  db: Db,
  orgId: string,
  search: string,
  byName: boolean,
  ids: readonly string[],
  atLoad = false,
): Promise<{ counts: Map<string, number[]>; added: boolean }> {
  const groups = [1, 2, 3, 4, 5, 6, 7, 8].map((group) => sql`count(*) filter (where x.g = ${sql.lit(group)})`);
  const bucketUsers = byName
    ? sql`select u.status, u.is_system_admin, u.search_text from users u
        where u.org_id = ${orgId} and (u.sort_name, u.id) >= (b.sort_name, b.id)
        order by u.sort_name, u.id limit b.users`
    : sql`select u.status, u.is_system_admin, u.search_text from users u
        where u.org_id = ${orgId} and u.id >= b.id
        order by u.id limit b.users`;
  const { rows } = await sql<{ id: string; n: number[]; inserted: boolean }>`
    insert into user_page_bucket_searches (org_id, search, by_name, sort_name, id, version, n, found_at_load)
    select ${orgId}::uuid, ${search}, ${byName}, b.sort_name, b.id, b.version, c.n, ${atLoad}
    from (
      select b.sort_name, b.id, b.version,
        b.n[1] + b.n[2] + b.n[3] + b.n[4] + b.n[5] + b.n[6] + b.n[7] + b.n[8] as users
      from user_page_buckets b
      where b.org_id = ${orgId} and b.by_name = ${byName} and b.id = any(${[...ids]}::uuid[])
      offset 0
    ) b
    cross join lateral (
      -- Each match's status and user type computed once (offset 0), not once for each of the counts.
      select array[${sql.join(groups, sql`, `)}]::integer[] as n from (
        select user_group(w.status, w.is_system_admin) as g
        from (${bucketUsers}) w where strpos(w.search_text, ${search}) > 0 offset 0
      ) x
    ) c
    order by b.sort_name, b.id
    on conflict (org_id, search, by_name, sort_name, id) do update
      set version = excluded.version, n = excluded.n, counted_at = now(),
        found_at_load = user_page_bucket_searches.found_at_load or excluded.found_at_load
    returning id, n, xmax = 0 as inserted`.execute(db);
  return { counts: new Map(rows.map((row) => [row.id, row.n])), added: rows.some((row) => row.inserted) };
}

export interface BucketSearchOptions {
  /** Heavy searches that more users than this hold are counted (LOAD_BUCKET_SEARCHES_FROM). */
  from?: number;
  /** Told of each search as its counting starts. */
  onSearch?: (search: string, index: number, of: number) => void;
}

/**
 * Counts an organisation's densest heavy searches, those its load or recount found (migration
 * 0012) that more users hold than a kept list holds (at most MAX_LOAD_BUCKET_SEARCHES), in every
 * page bucket of both orders, as a load's (migration 0022), after dropping the counts an earlier
 * load or recount made: their first deep pages then read counts instead of counting up to half a
 * million entries ("user.", page 10,000 at 1,000,000 users on PostgreSQL: 96–159 → 16 ms).
 *
 * Run after the load's vacuum (an index-only scan of a table without its visibility map reads every
 * row too: six times as long on PGlite). No lock is needed: each bucket is counted for the version
 * it has in the counting statement's snapshot, and a write since moves that version on, as for the
 * counts a request takes. Returns the searches counted.
 */
export async function countHeavySearchesInBuckets(
  db: Db,
  orgId: string,
  { from = LOAD_BUCKET_SEARCHES_FROM, onSearch }: BucketSearchOptions = {},
): Promise<string[]> {
  await db
    .deleteFrom('user_page_bucket_searches')
    .where('org_id', '=', orgId)
    .where('found_at_load', '=', true)
    .execute();
  const dense = await db
    .selectFrom('user_kept_searches')
    .select('search')
    .where('org_id', '=', orgId)
    .where('found_at_load', '=', true)
    .groupBy('search')
    .having(sql<boolean>`sum(n) > ${from}`)
    .orderBy(sql`sum(n)`, 'desc')
    .orderBy('search')
    .limit(MAX_LOAD_BUCKET_SEARCHES)
    .execute();
  // The buckets' ids in batches, per order, read once for every search (a bucket cut meanwhile is
  // counted by the first deep page that needs it, as after any write).
  const batchesOf = async (byName: boolean) => {
    const ids = (
      await db
        .selectFrom('user_page_buckets')
        .select('id')
        .where('org_id', '=', orgId)
        .where('by_name', '=', byName)
        .execute()
    ).map((bucket) => bucket.id);
    return Array.from({ length: Math.ceil(ids.length / BUCKETS_AT_ONCE) }, (_, k) =>
      ids.slice(k * BUCKETS_AT_ONCE, (k + 1) * BUCKETS_AT_ONCE),
    );
  };
  const orders =
    dense.length === 0
      ? []
      : [
          { byName: false, batches: await batchesOf(false) },
          { byName: true, batches: await batchesOf(true) },
        ];
  for (const [index, { search }] of dense.entries()) {
    onSearch?.(search, index, dense.length);
    for (const { byName, batches } of orders) {
      for (const ids of batches) await countSearchInBuckets(db, orgId, search, byName, ids, true);
    }
  }
  return dense.map(({ search }) => search);
}
