import type { Kysely } from 'kysely';
import { keptCountFunctions } from './kept-counts.ts';
import { runStatements } from './run-statements.ts';

/**
 * The count triggers' functions of 0003, now generated from the list of kept filters: the same
 * counts, written by `keptCountFunctions`. The list as it was then, not as it may grow: a filter
 * added later regenerates them in its own migration.
 */
export const STATEMENTS = `${keptCountFunctions(['status', 'is_system_admin', 'is_external'])}\n`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
