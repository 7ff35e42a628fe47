import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Users per organisation, filter value and day of last sign-in (UTC; '-infinity' for never), kept
 * by the same triggers as `user_counts`: a Last sign-in total adds up at most a few thousand of
 * these rows and counts the boundary's day in `users_last_sign_in_idx`, instead of counting the index.
 */
export const STATEMENTS = `
create table sign_in_counts (
  org_id uuid not null,
  status text not null,
  is_system_admin boolean not null,
  is_external boolean not null,
  day date not null,
  n bigint not null,
  primary key (org_id, status, is_system_admin, is_external, day)
);

create function sign_in_day(at timestamptz) returns date language sql immutable parallel safe
  return coalesce((at at time zone 'UTC')::date, '-infinity'::date);

insert into sign_in_counts (org_id, status, is_system_admin, is_external, day, n)
select org_id, status, is_system_admin, is_external, sign_in_day(last_sign_in_at), count(*) from users
group by 1, 2, 3, 4, 5;

-- The triggers of 0001-baseline, now adding each row's +1 (new_rows) and -1 (old_rows) to both kept
-- counts, in key order so that two writers never deadlock.
create or replace function user_counts_insert() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, count(*) from new_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  insert into sign_in_counts as c (org_id, status, is_system_admin, is_external, day, n)
  select org_id, status, is_system_admin, is_external, sign_in_day(last_sign_in_at), count(*) from new_rows
  group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (org_id, status, is_system_admin, is_external, day) do update set n = c.n + excluded.n;
  return null;
end $$;

create or replace function user_counts_delete() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, -count(*) from old_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  insert into sign_in_counts as c (org_id, status, is_system_admin, is_external, day, n)
  select org_id, status, is_system_admin, is_external, sign_in_day(last_sign_in_at), -count(*) from old_rows
  group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (org_id, status, is_system_admin, is_external, day) do update set n = c.n + excluded.n;
  return null;
end $$;

-- A sign-in moves its user from one day's count to today's; a group whose rows only changed within it is not written.
create or replace function user_counts_update() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, sum(d) from (
    select org_id, status, is_system_admin, is_external, 1 as d from new_rows
    union all
    select org_id, status, is_system_admin, is_external, -1 from old_rows
  ) changed
  group by 1, 2, 3, 4 having sum(d) <> 0 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  insert into sign_in_counts as c (org_id, status, is_system_admin, is_external, day, n)
  select org_id, status, is_system_admin, is_external, day, sum(d) from (
    select org_id, status, is_system_admin, is_external, sign_in_day(last_sign_in_at) as day, 1 as d from new_rows
    union all
    select org_id, status, is_system_admin, is_external, sign_in_day(last_sign_in_at), -1 from old_rows
  ) changed
  group by 1, 2, 3, 4, 5 having sum(d) <> 0 order by 1, 2, 3, 4, 5
  on conflict (org_id, status, is_system_admin, is_external, day) do update set n = c.n + excluded.n;
  return null;
end $$;

create or replace function user_counts_truncate() returns trigger language plpgsql as $$
begin
  delete from user_counts;
  delete from sign_in_counts;
  return null;
end $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
