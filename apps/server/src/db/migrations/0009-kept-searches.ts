import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Searches that many users hold in their names or mailboxes, kept counted. Such a search is counted
 * from the rows the first time (through the trigram index: 0.35 s for 500,000 matches), and its
 * counts per status and user type are then kept in `user_kept_searches` by statement-level
 * triggers, in the same transaction as every change, as the grams are (0005): no later request of
 * that search counts again, whatever was written in between (the counts cached per data version,
 * `user_search_counts`, were dropped by every write to the organisation).
 *
 * The repository decides what is kept (a search counted at or above a number of matches, up to a
 * number of searches per organisation). It counts in one snapshot with the organisation's data
 * version, without locks, and keeps the counts while holding a share lock on the organisation's
 * `org_data_versions` row, which every writer's count trigger (0002) updates before these triggers
 * run; if the version moved since the snapshot, it counts again under that lock. No write can fall
 * between the counting and the keeping, and writers wait only while a search is being kept. Locks are
 * taken in key order, as in 0005 and 0008. Writers must use read committed (PostgreSQL's default, and the
 * only level this application writes with): a repeatable-read writer's trigger would not see a
 * search kept after its snapshot, and its rows would be missing from that search's counts.
 *
 * Also: a trigram index of the kept domain keys (0007), so that the domains a search is in are
 * found among many (an organisation of consumer addresses has about one per user: 40,000 domains
 * read one by one cost 20 ms a page).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create index user_search_grams_domain_trgm_idx on user_search_grams using gin (gram gin_trgm_ops)
      where gram >= chr(31) and gram < chr(32);

    create table user_kept_searches (
      org_id uuid not null,
      search text collate "C" not null,
      status text not null,
      is_system_admin boolean not null,
      n bigint not null,
      primary key (org_id, search, status, is_system_admin)
    );

    create function users_kept_searches_insert() returns trigger language plpgsql as $$
    begin
      insert into user_kept_searches (org_id, search, status, is_system_admin, n)
        select k.org_id, k.search, i.status, i.is_system_admin, count(*)
        from (
          select distinct org_id, search from user_kept_searches
          where org_id in (select org_id from inserted)
        ) k
        join inserted i on i.org_id = k.org_id and strpos(i.search_text, k.search) > 0
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (org_id, search, status, is_system_admin) do update set n = user_kept_searches.n + excluded.n;
      return null;
    end $$;

    create function users_kept_searches_delete() returns trigger language plpgsql as $$
    begin
      insert into user_kept_searches (org_id, search, status, is_system_admin, n)
        select k.org_id, k.search, o.status, o.is_system_admin, -count(*)
        from (
          select distinct org_id, search from user_kept_searches
          where org_id in (select org_id from deleted)
        ) k
        join deleted o on o.org_id = k.org_id and strpos(o.search_text, k.search) > 0
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (org_id, search, status, is_system_admin) do update set n = user_kept_searches.n + excluded.n;
      return null;
    end $$;

    -- Only rows whose search text, status or user type changed (or that moved) move counts.
    create function users_kept_searches_update() returns trigger language plpgsql as $$
    begin
      insert into user_kept_searches (org_id, search, status, is_system_admin, n)
        select k.org_id, k.search, c.status, c.is_system_admin, sum(c.delta)
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
        ) c
        join (
          select distinct org_id, search from user_kept_searches
          where org_id in (select org_id from inserted union select org_id from deleted)
        ) k on k.org_id = c.org_id and strpos(c.search_text, k.search) > 0
        group by 1, 2, 3, 4
        having sum(c.delta) <> 0
        order by 1, 2, 3, 4
        on conflict (org_id, search, status, is_system_admin) do update set n = user_kept_searches.n + excluded.n;
      return null;
    end $$;

    create trigger users_kept_searches_insert after insert on users
      referencing new table as inserted for each statement execute function users_kept_searches_insert();
    create trigger users_kept_searches_delete after delete on users
      referencing old table as deleted for each statement execute function users_kept_searches_delete();
    create trigger users_kept_searches_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_kept_searches_update();
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop trigger users_kept_searches_update on users;
    drop trigger users_kept_searches_delete on users;
    drop trigger users_kept_searches_insert on users;
    drop function users_kept_searches_update();
    drop function users_kept_searches_delete();
    drop function users_kept_searches_insert();
    drop table user_kept_searches;
    drop index user_search_grams_domain_trgm_idx;
  `,
  );
}
