import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * Every page bucket whose counts differ from the users in its range (from its key to the next
 * bucket's), and every organisation and order whose buckets do not add up to its users.
 */
export async function bucketMismatches(db: Db): Promise<unknown[]> {
  const groups = [1, 2, 3, 4, 5, 6, 7, 8].map(
    (g) => `count(*) filter (where user_group(u.status, u.is_system_admin) = ${g})`,
  );
  const ranges = await sql`
    with b as (
      select org_id, by_name, sort_name, id, n,
        lead(sort_name) over w as next_sort, lead(id) over w as next_id
      from user_page_buckets window w as (partition by org_id, by_name order by sort_name, id)
    )
    select b.org_id, b.by_name, b.sort_name, b.id, b.n, a.actual from b cross join lateral (
      select array[${sql.raw(groups.join(', '))}]::integer[] as actual from users u
      where u.org_id = b.org_id and case
        when b.by_name then (u.sort_name, u.id) >= (b.sort_name, b.id)
          and (b.next_id is null or (u.sort_name, u.id) < (b.next_sort, b.next_id))
        else u.id >= b.id and (b.next_id is null or u.id < b.next_id)
      end
    ) a
    where b.n <> a.actual`.execute(db);
  const totals = await sql`
    select o.id as org_id, k.by_name, coalesce(t.n, 0) as buckets, (select count(*) from users u where u.org_id = o.id) as users
    from organizations o cross join (values (false), (true)) k(by_name)
    left join (
      select org_id, by_name, sum(n[1] + n[2] + n[3] + n[4] + n[5] + n[6] + n[7] + n[8]) as n
      from user_page_buckets group by 1, 2
    ) t on t.org_id = o.id and t.by_name = k.by_name
    where coalesce(t.n, 0) <> (select count(*) from users u where u.org_id = o.id)`.execute(db);
  return [...ranges.rows, ...totals.rows];
}
