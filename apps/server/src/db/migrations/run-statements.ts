import { type Kysely, sql } from 'kysely';

/**
 * Runs a migration's DDL one statement at a time: PGlite's query path takes a single statement,
 * and the same files must run on PostgreSQL. Statements are separated by `;` at a line end,
 * except inside a `$$` function body.
 */
export async function runStatements<DB>(db: Kysely<DB>, script: string): Promise<void> {
  const statements: string[] = [];
  let current = '';
  for (const line of script.split('\n')) {
    current += `${line}\n`;
    const insideBody = (current.match(/\$\$/g)?.length ?? 0) % 2 === 1;
    if (!insideBody && /;\s*$/.test(line)) {
      statements.push(current.trim().replace(/;$/, ''));
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  for (const statement of statements.filter(Boolean)) await sql.raw(statement).execute(db);
}
