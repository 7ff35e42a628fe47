import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The triggers of `user_counts` and `org_data_versions` (0002) take their row locks in key order,
 * as those of the grams do (0005): two writers of one organisation that moved users between
 * statuses in opposite directions each locked one count row and waited for the other's, and
 * PostgreSQL ended one of them with a deadlock (5 in 4 s of two such writers). Each trigger now
 * writes its changes in one ordered statement per table: decrements as negative increments.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create or replace function users_count_insert() returns trigger language plpgsql as $$
    begin
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, count(*) from inserted
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      insert into org_data_versions (org_id, version)
        select distinct org_id, 1 from inserted order by 1
        on conflict (org_id) do update set version = org_data_versions.version + 1;
      return null;
    end $$;

    create or replace function users_count_delete() returns trigger language plpgsql as $$
    begin
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, -count(*) from deleted
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      insert into org_data_versions (org_id, version)
        select distinct org_id, 1 from deleted order by 1
        on conflict (org_id) do update set version = org_data_versions.version + 1;
      return null;
    end $$;

    create or replace function users_count_update() returns trigger language plpgsql as $$
    begin
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, sum(delta) from (
          select org_id, status, is_system_admin, -1 as delta from deleted
          union all
          select org_id, status, is_system_admin, 1 as delta from inserted
        ) c
        group by 1, 2, 3 having sum(delta) <> 0 order by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      insert into org_data_versions (org_id, version)
        select org_id, 1 from (select org_id from deleted union select org_id from inserted) o order by 1
        on conflict (org_id) do update set version = org_data_versions.version + 1;
      return null;
    end $$;
  `,
  );
}

/** The functions of 0002, as they were. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create or replace function users_count_insert() returns trigger language plpgsql as $$
    begin
      insert into user_counts (org_id, status, is_system_admin, n)
        select org_id, status, is_system_admin, count(*) from inserted group by 1, 2, 3
        on conflict (org_id, status, is_system_admin) do update set n = user_counts.n + excluded.n;
      insert into org_data_versions (org_id, version)
        select distinct org_id, 1 from inserted
        on conflict (org_id) do update set version = org_data_versions.version + 1;
      return null;
    end $$;

    create or replace function users_count_delete() returns trigger language plpgsql as $$
    begin
      update user_counts c set n = c.n - d.n
        from (select org_id, status, is_system_admin, count(*) as n from deleted group by 1, 2, 3) d
        where c.org_id = d.org_id and c.status = d.status and c.is_system_admin = d.is_system_admin;
      update org_data_versions v set version = v.version + 1
        from (select distinct org_id from deleted) d where v.org_id = d.org_id;
      return null;
    end $$;

    create or replace function users_count_update() returns trigger language plpgsql as $$
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
  `,
  );
}
