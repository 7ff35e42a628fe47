import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Each user's last sign-in, its filter's indexes, the data source filter's indexes, and the
 * administrators' preferences. The indexes the list walks carry `last_sign_in_at` so that a page
 * with its filter is read from them alone.
 */
export const STATEMENTS = `
alter table users add column if not exists last_sign_in_at timestamptz;

alter table users drop constraint users_pkey;
alter table users add primary key (org_id, id) include (status, is_system_admin, is_external, last_sign_in_at);
drop index if exists users_by_name_idx;
create index users_by_name_idx on users (org_id, sort_name, id)
  include (status, is_system_admin, is_external, last_sign_in_at);
drop index if exists users_search_by_id_idx;
create index users_search_by_id_idx on users (org_id, id)
  include (status, is_system_admin, is_external, last_sign_in_at, search_text, sort_name);
drop index if exists users_search_by_name_idx;
create index users_search_by_name_idx on users (org_id, sort_name, id)
  include (status, is_system_admin, is_external, last_sign_in_at, search_text);

-- The counts of the Last sign-in filter, a range of this index; its rare value (never) in each order.
create index users_last_sign_in_idx on users (org_id, last_sign_in_at) include (status, is_system_admin, is_external);
create index users_never_by_id_idx on users (org_id, id) include (status, is_system_admin, is_external)
  where last_sign_in_at is null;
create index users_never_by_name_idx on users (org_id, sort_name, id) include (status, is_system_admin, is_external)
  where last_sign_in_at is null;
-- The rare value of the Data source filter (third party) in each order.
create index users_external_by_id_idx on users (org_id, id) include (status, is_system_admin, last_sign_in_at)
  where is_external;
create index users_external_by_name_idx on users (org_id, sort_name, id) include (status, is_system_admin, last_sign_in_at)
  where is_external;

create table preferences (
  org_id uuid not null,
  user_id uuid not null,
  users_columns text[] not null,
  updated_at timestamptz not null default now(),
  -- No foreign key to users: it would refuse a TRUNCATE of users, which the counts are kept through.
  primary key (org_id, user_id)
);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
