import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * Grams whose kept span (migration 0016) does not hold every user who holds the gram, as the users
 * are now; with `exact`, also those whose span is wider than a bulk load or recount tallies it (from
 * the first two characters of the first name to just past those of the last). Organisations being
 * bulk-loaded have none yet.
 */
export async function spanMismatches(db: Db, options: { exact?: boolean } = {}): Promise<unknown[]> {
  const wider = options.exact
    ? sql`or k.gram is not null and (k.first_sort <> left(a.first_sort, 2) or left(k.last_sort, 1) <> left(a.last_sort, 1))`
    : sql``;
  const result = await sql`
    select coalesce(a.org_id, k.org_id) as org_id, coalesce(a.gram, k.gram) as gram,
           k.first_sort as kept_first, a.first_sort as first, k.last_sort as kept_last, a.last_sort as last
    from (
      select u.org_id, g.gram, min(u.sort_name) as first_sort, max(u.sort_name) as last_sort
      from users u cross join lateral search_grams(u.search_text) g(gram)
      where g.gram not like chr(31) || '%'
        and u.org_id not in (select org_id from user_search_grams_pending)
      group by 1, 2
    ) a
    ${options.exact ? sql`full join` : sql`left join`} user_search_spans k using (org_id, gram)
    where k.gram is null or k.first_sort > a.first_sort or k.last_sort < a.last_sort ${wider}
       ${options.exact ? sql`or a.gram is null` : sql``}
    limit 5`.execute(db);
  return result.rows;
}
