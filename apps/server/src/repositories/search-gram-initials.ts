import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { searchGrams } from '../lib/user-text.ts';

/** Where a search's matches can lie in the name order: `sort_name` from `from` and before `before`. */
export interface NameRange {
  from?: string;
  before?: string | undefined;
}

/**
 * The range of `sort_name` that holds every match of a search: from the first to past the last
 * initial whose users hold all of its pairs (`search_gram_initials`, 0009). A walk by name started
 * there skips the names of other initials (another script's, say) instead of testing each one.
 * Unbounded for a search without pairs, when no initial holds them all, and while a bulk load is pending.
 */
export async function nameRange(db: Db, orgId: string, search: string): Promise<NameRange> {
  const grams = searchGrams(search.toLowerCase());
  if (grams.length === 0) return {};
  const held = db
    .selectFrom('search_gram_initials')
    .select('initial')
    .where('org_id', '=', orgId)
    .where('gram', 'in', grams)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('search_gram_initials_pending').select('org_id').where('org_id', '=', orgId))),
    )
    .groupBy('initial')
    .having(sql`count(*)`, '=', grams.length)
    .as('held');
  const row = await db
    .selectFrom(held)
    .select([sql<string | null>`min(initial)`.as('first'), sql<string | null>`max(initial)`.as('last')])
    .executeTakeFirstOrThrow();
  if (row.first === null || row.last === null) return {};
  return { from: row.first, before: nextInitial(row.last) };
}

/** The least string after every name starting with `initial` (one character, or none for an empty name). */
export function nextInitial(initial: string): string | undefined {
  const point = initial === '' ? 0 : (initial.codePointAt(0) ?? 0);
  const next = point + 1 === 0xd800 ? 0xe000 : point + 1;
  return next > 0x10ffff ? undefined : String.fromCodePoint(next);
}
