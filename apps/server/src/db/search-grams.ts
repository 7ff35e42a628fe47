import { USER_STATUSES, type UserStatus } from '@users-admin/contract';
import { type Kysely, sql } from 'kysely';
import { forEachSearchGram, SEARCH_SEPARATOR } from '../lib/user-text.ts';

const STATUSES = USER_STATUSES;
/** The number of statuses and user types a user can have together. */
export const STATUS_GROUPS = STATUSES.length * 2;
/** A status and user type as one small number, from 0 to STATUS_GROUPS - 1. */
export const statusGroup = (status: string, isSystemAdmin: boolean): number =>
  STATUSES.indexOf(status as UserStatus) * 2 + Number(isSystemAdmin);
/** The status and user type of a `statusGroup` number. */
export const groupStatus = (group: number): { status: UserStatus; isSystemAdmin: boolean } => ({
  status: STATUSES[group >> 1] as UserStatus,
  isSystemAdmin: (group & 1) === 1,
});

/**
 * Counts of grams per status and user type, as a bulk load adds them up for `user_search_grams`.
 * Each gram's counts remember the last user who added to them, so that a user holding a gram twice
 * counts once without a set of grams per user (a million users are tallied in about 5 s, not 17).
 */
export class GramTally {
  private readonly grams = new Map<
    string,
    { lastUser: number; counts: Uint32Array; firstSort: string | undefined; lastSort: string | undefined }
  >();
  private users = 0;

  /**
   * Adds a user's grams, and the user's `sort_name` to their spans (migration 0016) when given (a
   * migration before 0016 has no spans to write).
   */
  add(searchTextOfUser: string, status: string, isSystemAdmin: boolean, sortName?: string): void {
    const group = statusGroup(status, isSystemAdmin);
    const user = ++this.users;
    forEachSearchGram(searchTextOfUser, (gram) => {
      let tally = this.grams.get(gram);
      if (!tally) {
        tally = { lastUser: 0, counts: new Uint32Array(STATUS_GROUPS), firstSort: sortName, lastSort: sortName };
        this.grams.set(gram, tally);
      }
      if (tally.lastUser !== user) {
        tally.lastUser = user;
        tally.counts[group] = (tally.counts[group] ?? 0) + 1;
        if (sortName === undefined) return;
        if (tally.firstSort === undefined || compareCodePoints(sortName, tally.firstSort) < 0)
          tally.firstSort = sortName;
        if (tally.lastSort === undefined || compareCodePoints(sortName, tally.lastSort) > 0) tally.lastSort = sortName;
      }
    });
  }

  /** Each gram's first and last `sort_name`, without the domain keys. */
  *spans(): Generator<{ gram: string; firstSort: string; lastSort: string }> {
    for (const [gram, { firstSort, lastSort }] of this.grams) {
      if (firstSort !== undefined && lastSort !== undefined && !gram.startsWith(SEARCH_SEPARATOR))
        yield { gram, firstSort, lastSort };
    }
  }

  /** How many users hold each gram, whatever their status and user type. */
  totals(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const [gram, { counts }] of this.grams)
      totals.set(
        gram,
        counts.reduce((sum, n) => sum + n, 0),
      );
    return totals;
  }

  *rows(): Generator<{ gram: string; status: string; isSystemAdmin: boolean; n: number }> {
    for (const [gram, { counts }] of this.grams) {
      for (const [group, n] of counts.entries()) if (n > 0) yield { gram, ...groupStatus(group), n };
    }
  }
}

/**
 * Compares two strings by code point, as PostgreSQL's "C" collation orders UTF-8 text. JavaScript's
 * `<` compares UTF-16 code units, which differs only where the first difference is a surrogate
 * against a code unit from U+E000 up: both are then shifted so that the surrogates come last.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Adds an organisation's tallied grams to `user_search_grams`, 10,000 rows per statement. */
export async function insertGrams<DB>(db: Kysely<DB>, orgId: string, tally: GramTally): Promise<void> {
  const rows = [...tally.rows()];
  for (let from = 0; from < rows.length; from += 10_000) {
    const chunk = rows.slice(from, from + 10_000);
    await sql`
      insert into user_search_grams (org_id, gram, status, is_system_admin, n)
      select ${orgId}::uuid, * from unnest(
        ${chunk.map((row) => row.gram)}::text[], ${chunk.map((row) => row.status)}::text[],
        ${chunk.map((row) => row.isSystemAdmin)}::boolean[], ${chunk.map((row) => row.n)}::bigint[]
      )
      on conflict (org_id, gram, status, is_system_admin) do update set n = user_search_grams.n + excluded.n`.execute(
      db,
    );
  }
}

/** Widens an organisation's spans (migration 0016) to its tallied ones, 10,000 rows per statement. */
export async function insertSpans<DB>(db: Kysely<DB>, orgId: string, tally: GramTally): Promise<void> {
  const spans = [...tally.spans()];
  for (let from = 0; from < spans.length; from += 10_000) {
    const chunk = spans.slice(from, from + 10_000);
    await sql`
      insert into user_search_spans (org_id, gram, first_sort, last_sort)
      select ${orgId}::uuid, * from unnest(
        ${chunk.map((row) => row.gram)}::text[], ${chunk.map((row) => row.firstSort)}::text[],
        ${chunk.map((row) => row.lastSort)}::text[]
      )
      on conflict (org_id, gram) do update
        set first_sort = least(user_search_spans.first_sort, excluded.first_sort),
            last_sort = greatest(user_search_spans.last_sort, excluded.last_sort)`.execute(db);
  }
}
