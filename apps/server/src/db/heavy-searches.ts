import { sql } from 'kysely';
import { MAX_GRAM_LENGTH, SEARCH_SEPARATOR } from '../lib/user-text.ts';
import type { Db } from './database.ts';
import { groupStatus, STATUS_GROUPS, statusGroup } from './search-grams.ts';

/**
 * A search that at least this many users hold in their name or mailbox is heavy: counting it from
 * the rows the first time takes more than about 40 ms at 1,000,000 users on PostgreSQL (through the
 * trigram index, ~1.5 µs a match: "user.1", 55,671 users, 83–102 ms; by walking the organisation,
 * "user.", 500,009 users, 0.2–0.4 s).
 */
export const HEAVY_SEARCHES_FROM = 20_000;
/**
 * At most this many searches are kept counted per organisation (migration 0009): each costs every
 * write to the organisation one substring test per changed row.
 */
export const MAX_KEPT_SEARCHES = 200;
/** At most this many of them are heavy searches kept at a load. */
export const MAX_HEAVY_SEARCHES = 50;

/** A search's users of one status and user type. */
export interface SearchCount {
  status: string;
  isSystemAdmin: boolean;
  n: number;
}

export interface HeavySearch {
  search: string;
  /** How many users hold it in their name or mailbox (the head of their search text). */
  inHeads: number;
  /** How many users hold it anywhere in their search text, per status and user type. */
  counts: SearchCount[];
}

/** A search that can be kept: no separator (no search holds it) and no `@` (the domain rules count those). */
const keepable = (text: string) => !text.includes(SEARCH_SEPARATOR) && !text.includes('@');

/**
 * The search texts of one organisation's users as a bulk load or a recount reads them, to find its
 * heavy searches: the substrings of four or more characters that at least `threshold` users hold
 * in their name or mailbox. A load keeps them counted from the start (migration 0009), as a request
 * keeps a search it counted, so that not even the first request of one counts it from the rows.
 *
 * A substring is held by no more users than any shorter substring of it (apriori): the candidates
 * of each length join two heavy substrings one character shorter that overlap in all but their
 * first and last characters, from the heavy 3-character grams the load tallies anyway; a candidate
 * is looked for only in the texts that hold its first part.
 */
export class HeavySearchTally {
  private readonly texts: string[] = [];
  private readonly groups: number[] = [];

  add(searchTextOfUser: string, status: string, isSystemAdmin: boolean): void {
    this.texts.push(searchTextOfUser);
    this.groups.push(statusGroup(status, isSystemAdmin));
  }

  /**
   * The heavy searches, the most held first, at most `max`. `grams` holds, for each gram, how many
   * users hold it anywhere in their search text: at least as many as hold it in their head.
   */
  find(grams: Iterable<[gram: string, users: number]>, threshold: number, max: number): HeavySearch[] {
    let heavy = new Map<string, Uint32Array | undefined>();
    for (const [gram, users] of grams) {
      if (users >= threshold && [...gram].length === MAX_GRAM_LENGTH && keepable(gram)) heavy.set(gram, undefined);
    }
    const found: HeavySearch[] = [];
    while (heavy.size > 0) {
      const next = new Map<string, Uint32Array | undefined>();
      for (const [search, first] of candidatesFrom(heavy)) {
        const { holders, inHeads, counts } = this.count(search, heavy.get(first));
        if (inHeads < threshold) continue;
        next.set(search, holders);
        found.push({ search, inHeads, counts });
      }
      heavy = next;
    }
    return found.sort((a, b) => b.inHeads - a.inHeads || (a.search < b.search ? -1 : 1)).slice(0, max);
  }

  /** Who holds `search` among `within` (the indexes of texts; all when undefined), and how many. */
  private count(search: string, within: Uint32Array | undefined) {
    const perGroup = new Uint32Array(STATUS_GROUPS);
    const holders: number[] = [];
    let inHeads = 0;
    const total = within ? within.length : this.texts.length;
    for (let k = 0; k < total; k++) {
      const i = within ? (within[k] as number) : k;
      const text = this.texts[i] as string;
      const at = text.indexOf(search);
      if (at < 0) continue;
      holders.push(i);
      const group = this.groups[i] ?? 0;
      perGroup[group] = (perGroup[group] ?? 0) + 1;
      // The head ends with the last `@`, which no candidate holds: where it is found first is in
      // the head exactly when the head holds it.
      const domainAt = text.lastIndexOf('@');
      if (domainAt < 0 || at < domainAt) inHeads += 1;
    }
    const counts = [...perGroup.entries()].flatMap(([group, n]) => (n === 0 ? [] : [{ ...groupStatus(group), n }]));
    return { holders: Uint32Array.from(holders), inHeads, counts };
  }
}

/**
 * The substrings one character longer whose two shorter substrings (all but the last character, all
 * but the first) are both heavy, each with the first of the two.
 */
function candidatesFrom(heavy: ReadonlyMap<string, unknown>): [candidate: string, first: string][] {
  const byPrefix = new Map<string, string[]>();
  for (const search of heavy.keys()) {
    const prefix = [...search].slice(0, -1).join('');
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), search]);
  }
  const candidates: [string, string][] = [];
  for (const search of heavy.keys()) {
    const suffix = [...search].slice(1).join('');
    for (const second of byPrefix.get(suffix) ?? []) candidates.push([search + [...second].slice(-1).join(''), search]);
  }
  return candidates;
}

/**
 * Keeps an organisation's heavy searches counted (migration 0009), marked as found at load (0012),
 * while it keeps fewer than MAX_KEPT_SEARCHES; a search it keeps already is left to its own counts.
 * For a bulk load or a recount, while no write to the organisation can fall between the reading of
 * its users and this: the rows are written in key order, as the triggers write them.
 */
export async function keepHeavySearches(db: Db, orgId: string, heavy: readonly HeavySearch[]): Promise<void> {
  const kept = await db
    .selectFrom('user_kept_searches')
    .select('search')
    .distinct()
    .where('org_id', '=', orgId)
    .execute();
  const keptAlready = new Set(kept.map((row) => row.search));
  const room = Math.max(0, MAX_KEPT_SEARCHES - keptAlready.size);
  const rows = heavy
    .filter((search) => !keptAlready.has(search.search))
    .slice(0, room)
    .flatMap(({ search, counts }) => counts.map((count) => ({ search, ...count })));
  if (rows.length === 0) return;
  await sql`
    insert into user_kept_searches (org_id, search, status, is_system_admin, n, found_at_load)
    select ${orgId}::uuid, search, status, is_system_admin, n, true from unnest(
      ${rows.map((row) => row.search)}::text[], ${rows.map((row) => row.status)}::text[],
      ${rows.map((row) => row.isSystemAdmin)}::boolean[], ${rows.map((row) => row.n)}::bigint[]
    ) as t (search, status, is_system_admin, n)
    order by search, status, is_system_admin
    on conflict do nothing`.execute(db);
}
