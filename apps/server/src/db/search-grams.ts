import { USER_STATUSES, type UserStatus } from '@users-admin/contract';
import { type Kysely, type RawBuilder, sql } from 'kysely';
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
  private readonly grams = new Map<string, { lastUser: number; counts: Uint32Array; first: number; last: number }>();
  private users = 0;

  /**
   * Adds a user's grams, and the user's `sort_name` to their spans (migration 0016) when given (a
   * migration before 0016 has no spans to write). A span is tallied by the first two code points
   * of the names (`nameKey`), compared as numbers: the names themselves cost a million users 5–8 s.
   */
  add(searchTextOfUser: string, status: string, isSystemAdmin: boolean, sortName?: string): void {
    const group = statusGroup(status, isSystemAdmin);
    const user = ++this.users;
    const key = sortName === undefined ? -1 : nameKey(sortName);
    forEachSearchGram(searchTextOfUser, (gram) => {
      let tally = this.grams.get(gram);
      if (!tally) {
        tally = { lastUser: 0, counts: new Uint32Array(STATUS_GROUPS), first: key, last: key };
        this.grams.set(gram, tally);
      }
      if (tally.lastUser !== user) {
        tally.lastUser = user;
        tally.counts[group] = (tally.counts[group] ?? 0) + 1;
        if (key < tally.first) tally.first = key;
        if (key > tally.last) tally.last = key;
      }
    });
  }

  /**
   * Each gram's span, without the domain keys: from the first two code points of its first name
   * to just past those of its last, so that every holder's `sort_name` lies between them.
   */
  *spans(): Generator<{ gram: string; firstSort: string; lastSort: string }> {
    for (const [gram, { first, last }] of this.grams) {
      if (first >= 0 && !gram.startsWith(SEARCH_SEPARATOR))
        yield { gram, firstSort: keyPrefix(first), lastSort: keyPrefix(last, true) };
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

const CODE_POINTS = 0x110000;

/**
 * A name's first two code points as one number, in the order PostgreSQL's "C" collation gives the
 * names (their UTF-8 bytes, which is code point order): a missing one counts as 0, below any.
 */
export function nameKey(name: string): number {
  const first = name.codePointAt(0) ?? 0;
  const second = name.codePointAt(first > 0xffff ? 2 : 1) ?? 0;
  return first * CODE_POINTS + second;
}

/**
 * The text of a `nameKey`: its code points, which sort before or with every name they start; with
 * `after`, the least text after every such name (the second code point, or the first, moved on).
 */
export function keyPrefix(key: number, after = false): string {
  let first = Math.floor(key / CODE_POINTS);
  let second = key % CODE_POINTS;
  if (after && second > 0) {
    second += 1;
    if (second === CODE_POINTS) {
      first += 1;
      second = 0;
    }
  }
  if (first === 0) return '';
  if (first >= CODE_POINTS) return '\u{10FFFF}'.repeat(8);
  return second > 0 ? String.fromCodePoint(first, second) : String.fromCodePoint(first);
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

/** A user's key, by which `forEachUserChunk` reads on from where its last chunk ended. */
interface UserKey {
  org_id: string;
  id: string;
}

/**
 * Hands the users to `visit` in chunks of 20,000, in the order of their primary key, read by keyset
 * (each chunk after the last key of the one before): `columns` beside `org_id` and `id`, of the
 * users `where` holds (all when absent). For the tallies that bulk loads, migrations and recounts
 * make in JavaScript: a set-returning function per row in SQL is many times slower.
 */
export async function forEachUserChunk<Row extends UserKey, DB>(
  db: Kysely<DB>,
  { columns, where }: { columns: readonly string[]; where?: RawBuilder<boolean> },
  visit: (rows: readonly Row[]) => Promise<void> | void,
): Promise<void> {
  let after: UserKey | undefined;
  for (;;) {
    const conditions = [
      ...(where ? [where] : []),
      ...(after ? [sql<boolean>`(org_id, id) > (${after.org_id}::uuid, ${after.id}::uuid)`] : []),
    ];
    const { rows } = await sql<Row>`
      select org_id, id, ${sql.join(columns.map((column) => sql.ref(column)))} from users
      ${conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}
      order by org_id, id limit 20000`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    await visit(rows);
    after = last;
  }
}
