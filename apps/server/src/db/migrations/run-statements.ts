import { type Kysely, sql } from 'kysely';

/**
 * Runs a migration's DDL one statement at a time: PGlite's query path takes a single statement,
 * and the same files must run on PostgreSQL. Statements are separated by `;` at a line end.
 */
export async function runStatements(db: Kysely<unknown>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
  for (const statement of statements) await sql.raw(statement).execute(db);
}
