import { sql } from 'kysely';
import { textGrams } from '../lib/user-text.ts';
import type { Db } from './database.ts';

/** Rows of `search_gram_initials` written by one statement. */
const ROWS_A_STATEMENT = 20_000;

/**
 * The initials of an organisation's search pairs for a bulk load (0009): its triggers skip the
 * organisation while it is pending, the rows are gathered here as they are generated, a handful per
 * pair, and written once at the end, instead of each batch's pairs unnested and made distinct in SQL.
 */
export async function startGramInitialsLoad(db: Db, orgId: string) {
  await db.insertInto('search_gram_initials_pending').values({ org_id: orgId }).execute();
  const byInitial = new Map<string, Set<string>>();
  return {
    /** Adds a user's pairs under its initial (the first character of its sort name). */
    add(sortName: string, searchText: string) {
      const initial = sortName.length > 0 ? String.fromCodePoint(sortName.codePointAt(0) as number) : '';
      const grams = byInitial.get(initial) ?? new Set<string>();
      byInitial.set(initial, grams);
      textGrams(searchText, grams);
    },
    /** Writes the rows gathered and ends the organisation's pending state. */
    async finish() {
      const rows = [...byInitial].flatMap(([initial, grams]) => [...grams].map((gram) => [gram, initial] as const));
      for (let start = 0; start < rows.length; start += ROWS_A_STATEMENT) {
        const part = rows.slice(start, start + ROWS_A_STATEMENT);
        await sql`
          insert into search_gram_initials (org_id, gram, initial)
          select ${orgId}::uuid, * from unnest(${part.map(([gram]) => gram)}::text[], ${part.map(([, initial]) => initial)}::text[])
          on conflict do nothing`.execute(db);
      }
      await db.deleteFrom('search_gram_initials_pending').where('org_id', '=', orgId).execute();
    },
  };
}
