import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Covering indexes for both orders, so that a search walks the ordered index without reading
 * the table (an index-only scan that stops at the page), replacing the plain sort index.
 *
 * Page anchors: every 1,000th row's sort key of an organisation's list in one order and one
 * filter, for one data version. A deep page starts from the nearest anchor instead of walking
 * every row before it; anchors of an older version are never read, so they cannot be stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_page_anchors (
      org_id uuid not null,
      version bigint not null,
      list_key text not null,
      position integer not null,
      sort_name text collate "C" not null,
      id uuid not null,
      primary key (org_id, list_key, version, position)
    );

    create index users_org_sort_cover_idx on users (org_id, sort_name, id) include (search_text, status, is_system_admin);
    create index users_org_id_cover_idx on users (org_id, id) include (search_text, status, is_system_admin);
    drop index users_org_sort_idx;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create index users_org_sort_idx on users (org_id, sort_name, id);
    drop index users_org_id_cover_idx;
    drop index users_org_sort_cover_idx;
    drop table user_page_anchors;
  `,
  );
}
