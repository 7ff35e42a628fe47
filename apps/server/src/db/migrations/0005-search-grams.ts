import type { Kysely } from 'kysely';
import { forEachUserChunk, GramTally, insertGrams } from '../search-grams.ts';
import { runStatements } from './run-statements.ts';

/**
 * Exact totals for searches of 1 to 3 characters without counting: a user matches such a search
 * exactly when the search is one of the distinct 1-, 2- or 3-character substrings ("grams") of the
 * user's search text, so `user_search_grams` keeps, per organisation, gram, status and user type,
 * how many users hold the gram. The trigram index cannot serve 1–2 characters at all, and a dense
 * 3-character search is no better off with it: counting them read every row (0.3–3 s at 1,000,000
 * users); the kept counts read at most eight rows.
 *
 * Statement-level triggers keep the counts in the same transaction as every change, as for
 * `user_counts`. A bulk load (the seeder) registers its new organisation in
 * `user_search_grams_pending`, which the triggers skip, computes the counts itself while it
 * generates the rows, and writes them and removes the registration in one transaction at the end:
 * an organisation still registered (a bulk load that was killed) is counted the old way, by reading
 * the rows, so a total is never wrong. Grams holding the separator between name and email (U+001F)
 * are not kept: a search cannot contain it.
 *
 * Writers of one organisation update the same gram rows ("a", ".", "com"…): every trigger takes
 * their locks in key order (`order by`), so two concurrent writes queue rather than deadlock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_search_grams (
      org_id uuid not null,
      gram text collate "C" not null,
      status text not null,
      is_system_admin boolean not null,
      n bigint not null,
      primary key (org_id, gram, status, is_system_admin)
    );

    create table user_search_grams_pending (
      org_id uuid primary key
    );

    create function search_grams(search_text text) returns setof text
      language sql immutable parallel safe as $$
        select distinct substr(search_text, i, k)
        from generate_series(1, length(search_text)) i, generate_series(1, 3) k
        where i + k - 1 <= length(search_text) and strpos(substr(search_text, i, k), chr(31)) = 0
      $$;

    create function users_grams_insert() returns trigger language plpgsql as $$
    begin
      insert into user_search_grams (org_id, gram, status, is_system_admin, n)
        select i.org_id, g.gram, i.status, i.is_system_admin, count(*)
        from inserted i cross join lateral search_grams(i.search_text) g(gram)
        where not exists (select 1 from user_search_grams_pending p where p.org_id = i.org_id)
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (org_id, gram, status, is_system_admin) do update set n = user_search_grams.n + excluded.n;
      return null;
    end $$;

    create function users_grams_delete() returns trigger language plpgsql as $$
    begin
      insert into user_search_grams (org_id, gram, status, is_system_admin, n)
        select o.org_id, g.gram, o.status, o.is_system_admin, -count(*)
        from deleted o cross join lateral search_grams(o.search_text) g(gram)
        where not exists (select 1 from user_search_grams_pending p where p.org_id = o.org_id)
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (org_id, gram, status, is_system_admin) do update set n = user_search_grams.n + excluded.n;
      return null;
    end $$;

    -- Only rows whose search text, status or user type changed move counts: one delta per key.
    create function users_grams_update() returns trigger language plpgsql as $$
    begin
      insert into user_search_grams (org_id, gram, status, is_system_admin, n)
        select c.org_id, g.gram, c.status, c.is_system_admin, sum(c.delta)
        from (
          select o.org_id, o.search_text, o.status, o.is_system_admin, -1 as delta
          from deleted o left join inserted n on n.org_id = o.org_id and n.id = o.id
          where n.id is null
             or (n.search_text, n.status, n.is_system_admin) is distinct from (o.search_text, o.status, o.is_system_admin)
          union all
          select n.org_id, n.search_text, n.status, n.is_system_admin, 1 as delta
          from inserted n left join deleted o on o.org_id = n.org_id and o.id = n.id
          where o.id is null
             or (n.search_text, n.status, n.is_system_admin) is distinct from (o.search_text, o.status, o.is_system_admin)
        ) c cross join lateral search_grams(c.search_text) g(gram)
        where not exists (select 1 from user_search_grams_pending p where p.org_id = c.org_id)
        group by 1, 2, 3, 4
        having sum(c.delta) <> 0
        order by 1, 2, 3, 4
        on conflict (org_id, gram, status, is_system_admin) do update set n = user_search_grams.n + excluded.n;
      return null;
    end $$;

    create trigger users_grams_insert after insert on users
      referencing new table as inserted for each statement execute function users_grams_insert();
    create trigger users_grams_delete after delete on users
      referencing old table as deleted for each statement execute function users_grams_delete();
    create trigger users_grams_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_grams_update();
  `,
  );
  await backfill(db);
}

/**
 * The grams of the users already there, added up in JS as the seeder does (an hour-long SQL
 * statement on 1,000,000 users: set-returning functions per row are slow; 15–30 s this way), read
 * in keyset chunks of the primary key.
 */
async function backfill(db: Kysely<unknown>): Promise<void> {
  const tallies = new Map<string, GramTally>();
  type Row = { org_id: string; id: string; search_text: string; status: string; is_system_admin: boolean };
  await forEachUserChunk<Row, unknown>(db, { columns: ['search_text', 'status', 'is_system_admin'] }, (rows) => {
    for (const row of rows) {
      let tally = tallies.get(row.org_id);
      if (!tally) {
        tally = new GramTally();
        tallies.set(row.org_id, tally);
      }
      tally.add(row.search_text, row.status, row.is_system_admin);
    }
  });
  for (const [orgId, tally] of tallies) await insertGrams(db, orgId, tally);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop trigger users_grams_update on users;
    drop trigger users_grams_delete on users;
    drop trigger users_grams_insert on users;
    drop function users_grams_update();
    drop function users_grams_delete();
    drop function users_grams_insert();
    drop function search_grams(text);
    drop table user_search_grams_pending;
    drop table user_search_grams;
  `,
  );
}
