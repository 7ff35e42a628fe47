import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Which kept searches (0009) a bulk load or a recount found heavy (`heavy-searches.ts`) rather than
 * a request counted: an organisation's heavy searches are kept from its load on, so that not even
 * their first request counts them from the rows. The triggers leave the mark as it is; a search
 * counts as found at load when any of its rows carries it. A column with a constant default: no
 * rewrite of the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table user_kept_searches add column found_at_load boolean not null default false;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table user_kept_searches drop column found_at_load;');
}
