import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The indexes led by a filter (status, user type) carry the search text and the other filter, as
 * the organisation's own order indexes do (0003): a search combined with a filter then walks the
 * filter's index in order without reading the table. Before, such a walk read a table row for
 * every index entry it passed (17,871 for "ann", active users, by name: 21 ms on 1,000,000 users).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index users_org_status_sort_idx;
    drop index users_org_status_id_idx;
    drop index users_org_admin_sort_idx;
    drop index users_org_admin_id_idx;
    create index users_org_status_sort_cover_idx on users (org_id, status, sort_name, id) include (search_text, is_system_admin);
    create index users_org_status_id_cover_idx on users (org_id, status, id) include (search_text, is_system_admin);
    create index users_org_admin_sort_cover_idx on users (org_id, is_system_admin, sort_name, id) include (search_text, status);
    create index users_org_admin_id_cover_idx on users (org_id, is_system_admin, id) include (search_text, status);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index users_org_admin_id_cover_idx;
    drop index users_org_admin_sort_cover_idx;
    drop index users_org_status_id_cover_idx;
    drop index users_org_status_sort_cover_idx;
    create index users_org_status_sort_idx on users (org_id, status, sort_name, id);
    create index users_org_status_id_idx on users (org_id, status, id);
    create index users_org_admin_sort_idx on users (org_id, is_system_admin, sort_name, id);
    create index users_org_admin_id_idx on users (org_id, is_system_admin, id);
  `,
  );
}
