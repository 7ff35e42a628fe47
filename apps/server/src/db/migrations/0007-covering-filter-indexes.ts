import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The indexes of each filter's rare value hold every other filter's column and the search text, so
 * that a search with that filter walks or gathers them alone, without reading the table for each
 * user it tests (the common values walk the orders' indexes, which hold the same). And `search_grams()`
 * is costed as the regexp it is.
 */
export const STATEMENTS = `
-- Costly as it is (a regexp over the text): a walk then tests it after the filters and LIKE, on the few users left.
alter function search_grams(text) cost 1000;
drop index if exists users_status_by_id_idx;
create index users_status_by_id_idx on users (org_id, status, id)
  include (is_system_admin, is_external, last_sign_in_at, sort_name, search_text) where status <> 'active';
drop index if exists users_status_by_name_idx;
create index users_status_by_name_idx on users (org_id, status, sort_name, id)
  include (is_system_admin, is_external, last_sign_in_at, search_text) where status <> 'active';
drop index if exists users_admin_by_id_idx;
create index users_admin_by_id_idx on users (org_id, id)
  include (status, is_external, last_sign_in_at, sort_name, search_text) where is_system_admin;
drop index if exists users_admin_by_name_idx;
create index users_admin_by_name_idx on users (org_id, sort_name, id)
  include (status, is_external, last_sign_in_at, search_text) where is_system_admin;
drop index if exists users_never_by_id_idx;
create index users_never_by_id_idx on users (org_id, id)
  include (status, is_system_admin, is_external, sort_name, search_text) where last_sign_in_at is null;
drop index if exists users_never_by_name_idx;
create index users_never_by_name_idx on users (org_id, sort_name, id)
  include (status, is_system_admin, is_external, search_text) where last_sign_in_at is null;
drop index if exists users_external_by_id_idx;
create index users_external_by_id_idx on users (org_id, id)
  include (status, is_system_admin, last_sign_in_at, sort_name, search_text) where is_external;
drop index if exists users_external_by_name_idx;
create index users_external_by_name_idx on users (org_id, sort_name, id)
  include (status, is_system_admin, last_sign_in_at, search_text) where is_external;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
