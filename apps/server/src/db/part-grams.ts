import { sql } from 'kysely';
import type { Db } from './database.ts';
import { STATUS_GROUPS, statusGroup } from './search-grams.ts';

/** Users in each part of an order as a load or recount cuts it (migration 0024). */
export const PART_USERS = 32_768;
/** The key below every user's: the first part of each order starts there. */
const FIRST_KEY = { sort_name: '', id: '00000000-0000-0000-0000-000000000000' };
/** Rows read at once, in the part's order. */
const CHUNK = 20_000;
/** Rows written at once. */
const WRITE_CHUNK = 10_000;

type Key = { sort_name: string; id: string };
type Row = Key & { search_text: string; status: string; is_system_admin: boolean };

/**
 * A gram as one number: a 1- or 2-character one by its code points, the second one plus one (none:
 * 0); a 3-character one of the Basic Multilingual Plane by its three 16-bit code points above
 * THREE. A 3-character gram with a character beyond that plane (an emoji, say) keeps its text.
 */
const SECOND = 0x110001;
const THREE = 2 ** 50;
const SEPARATOR = 0x1f;

/**
 * Calls `visit` with each 1- to 3-character substring of a search text, by code point, without the
 * separator (a substring may come more than once): the database's `search_part_grams()`; as a
 * number where it has one (`SECOND`, `THREE`), else as its text.
 */
function forEachPartGramKey(text: string, visit: (key: number | string) => void): void {
  let first = -1;
  let second = -1;
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    index += code > 0xffff ? 2 : 1;
    if (code === SEPARATOR) {
      first = -1;
      second = -1;
      continue;
    }
    visit(code * SECOND);
    if (second >= 0) visit(second * SECOND + code + 1);
    if (first >= 0) {
      visit(
        first <= 0xffff && second <= 0xffff && code <= 0xffff
          ? THREE + first * 0x100000000 + second * 0x10000 + code
          : String.fromCodePoint(first, second, code),
      );
    }
    first = second;
    second = code;
  }
}

/** The gram a key stands for. */
function gramOfKey(key: number | string): string {
  if (typeof key === 'string') return key;
  if (key >= THREE) {
    const codes = key - THREE;
    return String.fromCodePoint(
      Math.floor(codes / 0x100000000),
      Math.floor(codes / 0x10000) % 0x10000,
      codes % 0x10000,
    );
  }
  const first = Math.floor(key / SECOND);
  const second = key % SECOND;
  return second === 0 ? String.fromCodePoint(first) : String.fromCodePoint(first, second - 1);
}

/** The distinct 1- to 3-character substrings of a search text, as a part's tally takes them. */
export function partGramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  forEachPartGramKey(text, (key) => grams.add(gramOfKey(key)));
  return grams;
}

/**
 * One part's 1- to 3-character grams (`forEachPartGramKey`, `search_part_grams()`), each counted
 * once per user and per status and user type. Keyed by their code points as numbers rather than as
 * strings: a million users' 1- and 2-character grams were tallied in about a third of the time.
 */
class PartTally {
  private readonly grams = new Map<number | string, { lastUser: number; counts: Int32Array }>();
  private users = 0;

  /** The organisation's heavy searches (0012) and their counts in this part, per status and user type. */
  private readonly searches: { search: string; counts: Int32Array }[];

  constructor(searches: readonly string[]) {
    this.searches = searches.map((search) => ({ search, counts: new Int32Array(STATUS_GROUPS) }));
  }

  add(searchText: string, group: number): void {
    const user = ++this.users;
    forEachPartGramKey(searchText, (key) => {
      let tally = this.grams.get(key);
      if (!tally) {
        tally = { lastUser: 0, counts: new Int32Array(STATUS_GROUPS) };
        this.grams.set(key, tally);
      }
      if (tally.lastUser !== user) {
        tally.lastUser = user;
        tally.counts[group] = (tally.counts[group] ?? 0) + 1;
      }
    });
    for (const { search, counts } of this.searches) {
      if (searchText.includes(search)) counts[group] = (counts[group] ?? 0) + 1;
    }
  }

  get size(): number {
    return this.users;
  }

  *rows(): Generator<{ gram: string; n: string }> {
    for (const [key, { counts }] of this.grams) {
      yield { gram: gramOfKey(key), n: `{${counts.join(',')}}` };
    }
  }

  /** Every heavy search's counts, zero or not: the triggers find the searches by their rows. */
  *searchRows(): Generator<{ search: string; n: string }> {
    for (const { search, counts } of this.searches) yield { search, n: `{${counts.join(',')}}` };
  }
}

/**
 * Cuts an organisation's users into parts of `partUsers` consecutive users in each order and
 * writes each part's first key (`user_part_bounds`) and its counts of every 1- to 3-character gram
 * per status and user type (`user_part_grams`), and of each heavy search its load or recount found
 * (`user_part_searches`), in place of any it had (migration 0024): what the first deep page of such
 * a search adds up instead of counting page buckets. An
 * organisation of fewer than two parts' users gets none (its deep pages count buckets, as before).
 * Read in each order by keyset on its covering index, tallied in JavaScript (a set-returning
 * function per row in SQL is many times slower). The caller keeps writers away (a recount's lock;
 * a load's organisation, which nobody else knows yet), and runs it in a transaction.
 */
export async function buildPartGrams(
  db: Db,
  orgId: string,
  { partUsers = PART_USERS }: { partUsers?: number } = {},
): Promise<{ parts: number }> {
  await db.deleteFrom('user_part_grams').where('org_id', '=', orgId).execute();
  await db.deleteFrom('user_part_searches').where('org_id', '=', orgId).execute();
  await db.deleteFrom('user_part_bounds').where('org_id', '=', orgId).execute();
  const { users } = await db
    .selectFrom('user_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('n'), eb.val('0')).as('users'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  if (Number(users) < 2 * partUsers) return { parts: 0 };
  const searches = (
    await db
      .selectFrom('user_kept_searches')
      .select('search')
      .distinct()
      .where('org_id', '=', orgId)
      .where('found_at_load', '=', true)
      .orderBy('search')
      .execute()
  ).map((row) => row.search);

  let parts = 0;
  for (const byName of [false, true]) {
    const bounds: Key[] = [FIRST_KEY];
    let tally = new PartTally(searches);
    const flush = async (bound: Key) => {
      const rows = [...tally.rows()];
      for (let from = 0; from < rows.length; from += WRITE_CHUNK) {
        const chunk = rows.slice(from, from + WRITE_CHUNK);
        await sql`
          insert into user_part_grams (org_id, by_name, gram, sort_name, id, n)
          select ${orgId}::uuid, ${byName}, t.gram, ${bound.sort_name}, ${bound.id}::uuid, t.n::integer[]
          from unnest(${chunk.map((row) => row.gram)}::text[], ${chunk.map((row) => row.n)}::text[]) as t(gram, n)`.execute(
          db,
        );
      }
      const searchRows = [...tally.searchRows()];
      if (searchRows.length > 0) {
        await sql`
          insert into user_part_searches (org_id, by_name, search, sort_name, id, n)
          select ${orgId}::uuid, ${byName}, t.search, ${bound.sort_name}, ${bound.id}::uuid, t.n::integer[]
          from unnest(${searchRows.map((row) => row.search)}::text[], ${searchRows.map((row) => row.n)}::text[]) as t(search, n)`.execute(
          db,
        );
      }
    };
    let after: Key | undefined;
    for (;;) {
      const keyAfter = after
        ? byName
          ? sql`and (sort_name, id) > (${after.sort_name}, ${after.id}::uuid)`
          : sql`and id > ${after.id}::uuid`
        : sql``;
      const order = byName ? sql`sort_name, id` : sql`id`;
      const { rows } = await sql<Row>`
        select id, sort_name, search_text, status, is_system_admin from users
        where org_id = ${orgId} ${keyAfter}
        order by ${order} limit ${CHUNK}`.execute(db);
      for (const row of rows) {
        if (tally.size === partUsers) {
          await flush(bounds.at(-1) ?? FIRST_KEY);
          bounds.push({ sort_name: byName ? row.sort_name : '', id: row.id });
          tally = new PartTally(searches);
        }
        tally.add(row.search_text, statusGroup(row.status, row.is_system_admin));
      }
      after = rows.at(-1);
      if (rows.length < CHUNK) break;
    }
    await flush(bounds.at(-1) ?? FIRST_KEY);
    await db
      .insertInto('user_part_bounds')
      .values(bounds.map((bound) => ({ org_id: orgId, by_name: byName, sort_name: bound.sort_name, id: bound.id })))
      .execute();
    parts += bounds.length;
  }
  return { parts };
}
