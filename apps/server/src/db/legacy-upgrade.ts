import { sql } from 'kysely';
import type { Db } from './database.ts';
import { BASELINE } from './migrations/0001-baseline.ts';
import { runStatements } from './migrations/run-statements.ts';

/** The last of the migrations that came before the baseline: a database at it is upgraded in place. */
const LEGACY_LAST = '0024-part-grams';

/** What the old list engine added beside the tables it kept: its derived tables, and the functions of its triggers and indexes. */
const DROP_LEGACY_ENGINE = `
drop function if exists organizations_page_buckets_insert, search_domain, search_grams, search_mailbox_end,
  search_part_grams, search_words, session_is_system_admin, user_group, user_page_bucket_cut, user_page_buckets_add,
  user_page_buckets_build, user_part_of, user_search_spans_widen, users_count_delete, users_count_insert,
  users_count_update, users_grams_delete, users_grams_insert, users_grams_update, users_kept_searches_delete,
  users_kept_searches_insert, users_kept_searches_update, users_page_buckets_delete, users_page_buckets_insert,
  users_page_buckets_update, users_part_grams_delete, users_part_grams_insert, users_part_grams_update,
  users_spans_insert, users_spans_update cascade;
drop table if exists org_data_versions, user_search_counts, user_search_grams, user_search_grams_pending,
  user_search_spans, user_kept_searches, user_page_buckets, user_page_bucket_searches, user_part_bounds,
  user_part_grams, user_part_searches, user_search_lists, user_counts;
drop sequence if exists user_page_bucket_versions;
drop index if exists users_org_id_cover_idx, users_org_sort_cover_idx, users_org_status_id_cover_idx,
  users_org_status_sort_cover_idx, users_org_admin_id_cover_idx, users_org_admin_sort_cover_idx,
  users_search_domain_idx, users_search_words_trgm_idx, users_mailbox_end_idx;
drop extension if exists pg_trgm;
alter table users drop column if exists search_head;
alter table users drop constraint users_pkey;
alter table users add constraint users_pkey primary key (org_id, id)
  include (status, is_system_admin, is_external);
`;

/**
 * Brings a database made by the migrations before the baseline (0001-initial to 0024-part-grams)
 * to the baseline in one transaction, keeping every organisation, account, user and session: drops
 * the old engine, lets the baseline add what is missing (its trigram index, the counts and their
 * triggers), counts the users, and records the baseline as applied. True when it upgraded.
 */
export async function upgradeLegacySchema(db: Db): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null as found`.execute(
    db,
  );
  if (!rows[0]?.found) return false;
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = applied.rows.map((row) => row.name);
  if (!names.includes('0001-initial')) return false;
  if (!names.includes(LEGACY_LAST)) {
    throw new Error(
      `This database was made by an older version (its last migration is not ${LEGACY_LAST}): open it with that version first.`,
    );
  }
  await db.transaction().execute(async (tx) => {
    await runStatements(tx, DROP_LEGACY_ENGINE);
    await runStatements(tx, BASELINE);
    await sql`insert into user_counts (org_id, status, is_system_admin, is_external, n)
      select org_id, status, is_system_admin, is_external, count(*) from users group by 1, 2, 3, 4`.execute(tx);
    await sql`delete from kysely_migration`.execute(tx);
    await sql`insert into kysely_migration (name, timestamp) values ('0001-baseline', ${new Date().toISOString()})`.execute(
      tx,
    );
  });
  await sql`vacuum analyze users`.execute(db);
  return true;
}
