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
  /** The pairs and filter keys the index is asked for; none: the search is tested on every user the filters select. */
  grams: string[];
  /** The share of users that hold them all, taken as independent; 1 without any. */
  share: number;
  /** The share of users that hold the rarest of them, at least as many as hold them all; 1 without any. */
  rarest: number;
}

/** The grams chosen for a search with its filters, and those its pairs alone would have given. */
export interface ChosenGrams extends SearchGrams {
  byPairs: SearchGrams;
}

const NO_GRAMS: SearchGrams = { grams: [], share: 1, rarest: 1 };

/**
 * Which of a search's pairs of characters, and of its filters' keys, to ask the index of `search_keys()`
 * for, by how many users hold each: the planner's statistics of that index (its most common elements,
 * across the parts of `users`). An index lookup of many keys reads each one's posting list, and a common
 * pair's is as long as the organisation: the rarest few find the same candidates, which LIKE then tests.
 */
export function createSearchGramStats(db: Db) {
  let frequencies: Map<string, number> | undefined;
  let loadedAt = 0;
  let loading: Promise<Map<string, number>> | undefined;

  async function load(): Promise<Map<string, number>> {
    const { rows } = await sql<{ gram: string; share: number }>`
      select gram, max(share) as share from (
        select unnest(most_common_elems::text::text[]) as gram, unnest(most_common_elem_freqs) as share
        from pg_stats where attname = 'search_keys'
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
    /** The rarest few of the search's pairs, and of the filters' `keys` when a pair narrows it (`chooseGrams`). */
    async choose(search: string, keys: readonly string[] = []): Promise<ChosenGrams> {
      const pairs = searchGrams(search.toLowerCase());
      if (pairs.length === 0) return { ...NO_GRAMS, byPairs: NO_GRAMS };
      const shares = await current();
      const byPairs = chooseGrams(pairs, shares);
      // Keys alone find the filters' users, as their own indexes do in order: a walk finds a page sooner.
      if (keys.length === 0 || byPairs.grams.length === 0) return { ...byPairs, byPairs };
      const chosen = chooseGrams([...pairs, ...keys], shares);
      return { ...(chosen.grams.some((gram) => pairs.includes(gram)) ? chosen : byPairs), byPairs };
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
    rarest: rated[0]?.share ?? 1,
  };
}

export type SearchGramStats = ReturnType<typeof createSearchGramStats>;
