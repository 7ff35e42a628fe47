import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { searchGrams } from '../lib/user-text.ts';

/** A pair of characters in more than this share of users narrows a search too little to be worth reading from the index. */
const USELESS_SHARE = 0.3;
/** The index is asked for this many of a search's pairs at most, the rarest: each more costs its posting list. */
const MOST_GRAMS = 3;
/** The planner's statistics change only when the table is analysed: read them again after this long. */
const MAX_AGE_MS = 10 * 60_000;

export interface SearchGrams {
  /** The pairs the index is asked for; none: the search is tested on every user the filters select. */
  grams: string[];
  /** The share of users that hold them all, taken as independent; 1 without any. */
  share: number;
}

/**
 * Which of a search's pairs of characters to ask the index of `search_grams()` for, by how many users
 * hold each: the planner's statistics of that index (its most common elements, across the parts of
 * `users`). An index lookup of many pairs reads each one's posting list, and a common pair's is as
 * long as the organisation: the rarest few find the same candidates, which LIKE then tests.
 */
export function createSearchGramStats(db: Db) {
  let frequencies: Map<string, number> | undefined;
  let loadedAt = 0;
  let loading: Promise<Map<string, number>> | undefined;

  async function load(): Promise<Map<string, number>> {
    const { rows } = await sql<{ gram: string; share: number }>`
      select gram, max(share) as share from (
        select unnest(most_common_elems::text::text[]) as gram, unnest(most_common_elem_freqs) as share
        from pg_stats where attname = 'search_grams'
      ) elements where gram is not null group by gram`.execute(db);
    frequencies = new Map(rows.map((row) => [row.gram, Number(row.share)]));
    loadedAt = Date.now();
    return frequencies;
  }

  async function current(): Promise<Map<string, number>> {
    if (frequencies && Date.now() - loadedAt < MAX_AGE_MS) return frequencies;
    loading ??= load().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  return {
    /** The rarest few of the search's pairs that narrow it (`chooseGrams`). */
    async choose(search: string): Promise<SearchGrams> {
      const all = searchGrams(search.toLowerCase());
      return all.length === 0 ? { grams: [], share: 1 } : chooseGrams(all, await current());
    },
  };
}

/** The rarest MOST_GRAMS of `all` that narrow a search; a pair the statistics do not list is rare. */
export function chooseGrams(all: readonly string[], shares: ReadonlyMap<string, number>): SearchGrams {
  const rated = all
    .map((gram) => ({ gram, share: shares.get(gram) ?? 0 }))
    .filter(({ share }) => share <= USELESS_SHARE)
    .sort((a, b) => a.share - b.share)
    .slice(0, MOST_GRAMS);
  return {
    grams: rated.map(({ gram }) => gram),
    share: rated.reduce((product, { share }) => product * share, 1),
  };
}

export type SearchGramStats = ReturnType<typeof createSearchGramStats>;
