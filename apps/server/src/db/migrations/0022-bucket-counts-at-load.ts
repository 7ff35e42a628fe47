import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The counts per page bucket (migration 0014) of an organisation's densest heavy searches, taken
 * by its bulk load or recount (`countHeavySearchesInBuckets`), are marked and kept: the least
 * recently counted searches beyond an organisation's limit are dropped, but not these. A dense
 * search's first deep page counted the page buckets between it and the nearer end ("user.", page
 * 10,000, at 1,000,000 users on PostgreSQL: 96–159 ms), where it now reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table user_page_bucket_searches add column found_at_load boolean not null default false;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table user_page_bucket_searches drop column found_at_load;
    `,
  );
}
