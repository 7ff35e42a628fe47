import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The ordered matches of a search whose matches are sparse, kept for one data version of the
 * organisation: a page past the first of such a search read and sorted every match through the
 * trigram index (9,000 rows of the table for "son" in 1,000,000 users: 20–30 ms a page); from the
 * list it reads its 25 ids and their rows (under 1 ms). One row per organisation and list (search,
 * filters and order), replaced when the data version has moved; lists of an older version are never
 * read, so they cannot be stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_search_lists (
      org_id uuid not null,
      list_key text not null,
      version bigint not null,
      ids uuid[] not null,
      built_at timestamptz not null default now(),
      primary key (org_id, list_key)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table user_search_lists;');
}
