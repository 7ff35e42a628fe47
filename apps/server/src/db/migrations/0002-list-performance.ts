import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * What keeps the users list fast on large organisations:
 * - `user_counts`: exact counts per organisation, status and user type, kept by the database in the
 *   same transaction as every change (statement-level triggers), so totals without a search cost
 *   a handful of rows instead of a count over millions;
 * - `org_data_versions`: a version per organisation, bumped by the same triggers, that keys the
 *   cache of search counts (`user_search_counts`), so a cached count is never stale;
 * - indexes led by org_id for every filter and both orders, and a trigram index for search.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create extension if not exists pg_trgm;

    create table user_counts (
      org_id uuid not null,
      status text not null,
      is_system_admin boolean not null,
      n bigint not null,
      primary key (org_id, status, is_system_admin)
    );

    create table org_data_versions (
      org_id uuid primary key,
      version bigint not null
    );

    create table user_search_counts (
      org_id uuid not null,
      version bigint not null,
      query_key text not null,
      n bigint not null,
      created_at timestamptz not null default now(),
      primary key (org_id, query_key)
    );

    create function users_count_insert() returns trigger language plpgsql as $$
    begin
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, count(*) from inserted group by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      insert into org_data_versions (org_id, version)
        select distinct org_id, 1 from inserted
        on conflict (org_id) do update set version = org_data_versions.version + 1;
      return null;
    end $$;

    create function users_count_delete() returns trigger language plpgsql as $$
    begin
      update user_counts c set n = c.n - d.n
        from (select org_id, status, is_system_admin, count(*) as n from deleted group by 1, 2, 3) d
        where c.org_id = d.org_id and c.status = d.status and c.is_system_admin = d.is_system_admin;
      update org_data_versions v set version = v.version + 1
        from (select distinct org_id from deleted) d where v.org_id = d.org_id;
      return null;
    end $$;

    create function users_count_update() returns trigger language plpgsql as $$
    begin
      update user_counts c set n = c.n - d.n
        from (select org_id, status, is_system_admin, count(*) as n from deleted group by 1, 2, 3) d
        where c.org_id = d.org_id and c.status = d.status and c.is_system_admin = d.is_system_admin;
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, count(*) from inserted group by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      update org_data_versions v set version = v.version + 1
        from (select org_id from deleted union select org_id from inserted) d where v.org_id = d.org_id;
      return null;
    end $$;

    create trigger users_count_insert after insert on users
      referencing new table as inserted for each statement execute function users_count_insert();
    create trigger users_count_delete after delete on users
      referencing old table as deleted for each statement execute function users_count_delete();
    create trigger users_count_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_count_update();

    insert into user_counts (org_id, status, is_system_admin, n)
      select org_id, status, is_system_admin, count(*) from users group by 1, 2, 3;
    insert into org_data_versions (org_id, version) select distinct org_id, 1 from users;

    create index users_org_status_sort_idx on users (org_id, status, sort_name, id);
    create index users_org_status_id_idx on users (org_id, status, id);
    create index users_org_admin_sort_idx on users (org_id, is_system_admin, sort_name, id);
    create index users_org_admin_id_idx on users (org_id, is_system_admin, id);
    create index users_search_trgm_idx on users using gin (search_text gin_trgm_ops);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index users_search_trgm_idx;
    drop index users_org_admin_id_idx;
    drop index users_org_admin_sort_idx;
    drop index users_org_status_id_idx;
    drop index users_org_status_sort_idx;
    drop trigger users_count_update on users;
    drop trigger users_count_delete on users;
    drop trigger users_count_insert on users;
    drop function users_count_update();
    drop function users_count_delete();
    drop function users_count_insert();
    drop table user_search_counts;
    drop table org_data_versions;
    drop table user_counts;
  `,
  );
}
