import { USER_STATUSES, type UserListQuery } from '@users-admin/contract';
import { type AliasedSelectQueryBuilder, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { countSearchInBuckets } from '../db/bucket-searches.ts';
import { type Db, trigramsTakeEveryScript } from '../db/database.ts';
import { MAX_KEPT_SEARCHES } from '../db/heavy-searches.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { statusGroup } from '../db/search-grams.ts';
import {
  escapeLike,
  MAX_GRAM_LENGTH,
  mailboxEndPattern,
  SEARCH_SEPARATOR,
  searchGrams,
  searchWords,
  trigramIndexNarrows,
} from '../lib/user-text.ts';

export type ListedUser = Pick<
  UserRow,
  'id' | 'name' | 'email' | 'initials' | 'first_name' | 'last_name' | 'status' | 'is_external' | 'is_system_admin'
>;

export interface UserPage {
  users: ListedUser[];
  total: number;
}

const listedColumns = [
  'users.id',
  'users.name',
  'users.email',
  'users.initials',
  'users.first_name',
  'users.last_name',
  'users.status',
  'users.is_external',
  'users.is_system_admin',
] as const;

/** The full rows of a page's ids (`page.id`), looked up one by one in the ids' own plan. */
const rowColumns = [
  'u.id',
  'u.name',
  'u.email',
  'u.initials',
  'u.first_name',
  'u.last_name',
  'u.status',
  'u.is_external',
  'u.is_system_admin',
] as const;

/** Pages that start this deep start from their page bucket (migration 0013); shallower ones walk from the nearer end. */
const BUCKETED_FROM = 5000;
/** A sparse search's matches are kept as a list (migration 0010) only up to this many (16 bytes each). */
const MAX_LISTED_MATCHES = 50_000;
/**
 * A search that the kept grams take for a dense one only through its organisation's domains is
 * looked for in the heads through the trigram index, up to this many (about 2 µs each): fewer, and
 * it is counted through the index; as many, and it is walked.
 */
const HEADS_LOOKED_FOR = 20_000;
/** At most this many lists are kept per organisation (800 KB each at most); the least recently built go first. */
const MAX_SEARCH_LISTS = 16;
/** The bucket counts (migration 0014) of at most this many searches and orders are kept per organisation. */
const MAX_BUCKET_SEARCHES = 16;

/**
 * How a search matches a user through the e-mail domain alone: a search without `@` when it is in
 * the domain, one whose only `@` comes first when its rest starts the domain (the head ends with
 * that `@`); any other search never does. Never true of an empty domain.
 */
function domainRule(search: string): { domain: 'contains' | 'startsWith'; text: string } | undefined {
  const at = search.lastIndexOf('@');
  if (at < 0) return { domain: 'contains', text: search };
  if (at === 0 && search.length > 1) return { domain: 'startsWith', text: search.slice(1) };
  return undefined;
}

/** `domainRule` on a domain (`domain` an SQL expression). */
function domainMatch(search: string, domain: RawBuilder<unknown>) {
  const rule = domainRule(search);
  if (!rule) return sql<boolean>`false`;
  return rule.domain === 'contains'
    ? sql<boolean>`strpos(${domain}, ${rule.text}) > 0`
    : sql<boolean>`starts_with(${domain}, ${rule.text})`;
}

/** Whether a gram of `user_search_grams` (`gram` an SQL expression) is a domain key: a range the primary key serves. */
function isDomainKey(gram: RawBuilder<unknown>) {
  return sql<boolean>`${gram} >= chr(31) and ${gram} < chr(32)`;
}

/**
 * `domainRule` on the kept domain keys (`chr(31) || domain` in `user_search_grams`), as LIKE
 * patterns: a prefix the primary key serves, else one the keys' trigram index does.
 */
function domainKeyMatch(search: string) {
  const rule = domainRule(search);
  if (!rule) return sql<boolean>`false`;
  const range = isDomainKey(sql.ref('gram'));
  const text = escapeLike(rule.text);
  return sql<boolean>`${range} and gram like ${rule.domain === 'contains' ? `${SEARCH_SEPARATOR}%${text}%` : `${SEARCH_SEPARATOR}${text}%`}`;
}

/**
 * The head holds `text` (a LIKE pattern's escaped text): put to the trigram index of every character
 * (migration 0015) as `search_words` turns the head, then tested exactly, whatever letters a name
 * holds. `searchWords` keeps the escapes: it turns `_`, but not `\\` or `%`.
 */
function headHolds(text: string) {
  return sql<boolean>`(search_words(search_head) like ${`%${searchWords(text)}%`} and search_head like ${`%${text}%`})`;
}

/**
 * A search with an `@` inside matches across the `@` between head and domain: the head ends with
 * the part up to the last `@` (its mailbox, reversed, starts with it: a range of the index of mailbox
 * ends, migrations 0017 and 0018), and the domain starts with the rest. Undefined for any other
 * search. It reads `search_text` alone, which that index holds: counted by itself, it reads no row.
 */
export function acrossTheAt(search: string) {
  const at = search.lastIndexOf('@');
  if (at <= 0 || at === search.length - 1) return undefined;
  return sql<boolean>`(search_mailbox_end(search_text) collate "C" like ${mailboxEndPattern(search.slice(0, at + 1))} and starts_with(search_domain(search_text), ${search.slice(at + 1)}))`;
}

/**
 * A search put to its indexes (migration 0007): in the head (name and mailbox) through the trigram
 * index, across the `@` between head and domain, and in one of `domains` through the domain index.
 * `domains` are given as values, not as a subquery: the planner must see how few they are, or it
 * takes a domain most users share for all of them and reads the whole organisation (0.4 s).
 */
function searchByIndexes(search: string, domains: readonly string[]) {
  const arms = [headHolds(escapeLike(search))];
  if (domains.length > 0) arms.push(sql<boolean>`search_domain(search_text) = any(${[...domains]}::text[])`);
  const across = acrossTheAt(search);
  if (across) arms.push(across);
  return sql<boolean>`(${sql.join(arms, sql` or `)})`;
}

/**
 * A search's exact total with the filters, and the sizes that choose how its page is read: the users
 * with the filters (`base`), all the organisation's, and those with the filter that fewer have
 * (infinite without a filter); `countsKept` is false while a bulk load's counts are pending.
 */
interface SearchCounts {
  total: number;
  base: number;
  orgUsers: number;
  filterUsers: number;
  countsKept: boolean;
}

/**
 * Whether a search with a filter is read for less by walking that filter's own index (its entries
 * hold the search text) than through the search's indexes: when the filter's `filterUsers` are at
 * most `upTo` (`filterWalkUpTo`), and at most 16 times the `candidates` whose rows the search's
 * indexes would read (a bitmap heap scan, 1–3 µs a row, against 0.1 µs an index entry).
 */
function filterWalkCheaper(filterUsers: number, candidates: number, upTo: number): boolean {
  return filterUsers <= upTo && filterUsers <= 16 * candidates;
}

/**
 * How a search is tested: `walk` hides it from the indexes, so the database walks the ordered index
 * and stops at the page (the right plan when matches are dense, and the only one while an
 * organisation's kept counts are pending); a list of domains puts it to the search's indexes with
 * those domains (every domain of the organisation that `domainRule` accepts, or none to find only
 * the users who hold it in their head or across the `@`).
 */
type SearchTest = 'walk' | readonly string[];

/**
 * The part of the order by name where a search's matches lie (`searchSpan`): the grams whose spans
 * bound it, and the share of the organisation's users there when it was looked up.
 */
interface Span {
  orgId: string;
  grams: readonly string[];
  share: number;
}

/** A page bucket's users, all statuses and user types (`b.n[1]` to `b.n[8]`). */
const SUM_OF_BUCKET = sql.raw([1, 2, 3, 4, 5, 6, 7, 8].map((g) => `b.n[${g}]`).join(' + '));

/**
 * Limits a walk by name to a search's span; a walk in the order they joined is not limited. The
 * bounds are read in the walk's own statement, so that they are of the same state of the data: a
 * user added since the span was looked up has widened it there (and a list built then is kept).
 */
function withinSpan<O>(
  select: SelectQueryBuilder<Database, 'users', O>,
  query: UserListQuery,
  span: Span | undefined,
): SelectQueryBuilder<Database, 'users', O> {
  if (!span || query.sort === undefined) return select;
  const spans = sql`user_search_spans where org_id = ${span.orgId} and gram = any(${span.grams}::text[])`;
  return select
    .where('sort_name', '>=', sql<string>`(select max(first_sort) from ${spans})`)
    .where('sort_name', '<=', sql<string>`(select min(last_sort) from ${spans})`);
}

/** Which searches are kept counted (migration 0009). */
export interface UsersRepositoryOptions {
  /** A search found in this many names or mailboxes (or more) is kept counted once counted. */
  keepSearchesFrom?: number;
  /** At most this many searches are kept per organisation: each costs every write a text test. */
  maxKeptSearches?: number;
  /**
   * A search in an organisation of at most this many users is counted, and a search in a list (the
   * organisation's users with the filters) of at most this many is paged, by walking the
   * organisation's own ordered index: about 1 ms at most, whatever other organisations hold. The
   * trigram indexes are not led by the organisation (docs/decisions.md): their candidates are every
   * organisation's matches. 0 always uses the search's indexes (tests of them), in larger
   * organisations too (`walkDenseFrom`).
   */
  walkUpTo?: number;
  /**
   * A search with a filter that at most this many users have is counted and paged by walking that
   * filter's index, when that reads fewer entries than 16 per row the search's indexes would read
   * (`filterWalkCheaper`): about 12 ms per 100,000 entries on PostgreSQL. 0 never does.
   */
  filterWalkUpTo?: number;
  /**
   * A longer search that, by its trigrams' kept counts, this share of a larger organisation's users
   * (or more) may hold in their name or mailbox is counted by walking the organisation's index as
   * well: checking each of that many rows found through the trigram index costs more than reading
   * every entry of the index (on PostgreSQL, in parallel).
   */
  walkDenseFrom?: number;
  /**
   * Parallel workers a dense search's walk may use (PostgreSQL: "user." in 1,000,000 users counted in
   * 206–220 ms with two instead of 300–535 ms alone); 0 where the database has none (PGlite).
   */
  parallelWalkWorkers?: number;
  /**
   * A page of a search that walking the ordered index would reach only past this many users (or
   * more), or a search with more matches than its list may keep, is read from its counts per page
   * bucket (migration 0014) instead: each bucket counted once for each of its versions. 0 always
   * does so past a first page (tests of them).
   */
  bucketSearchesFrom?: number;
  /** A search's counts lacking in the buckets before a page are taken this many buckets at a time. */
  bucketsCountedAtOnce?: number;
  /**
   * A search's page that the walk was chosen for is walked past at most `factor` times the entries
   * the estimate gives, and at least `least`; past them it is read as a sparse or dense search's page.
   */
  walkCap?: { factor: number; least: number };
  /**
   * A search's deep page counts the next batch of buckets while it reads one: on PostgreSQL the two
   * run on two connections, at the cost of at most one batch counted that the page did not need.
   */
  countBucketsAhead?: boolean;
}

/** The longest of a search's kept grams (migration 0005): its distinct substrings of that length. */
function longestGramsOf(search: string): string[] {
  return [...searchGrams(search)].filter(
    (gram) => !gram.startsWith(SEARCH_SEPARATOR) && [...gram].length === MAX_GRAM_LENGTH,
  );
}

/**
 * The grams whose spans bound a search's matches in the order by name (migration 0016): the search
 * itself when it is 1–3 characters long, else its trigrams; none when it holds the separator, which
 * no gram does.
 */
function spanGramsOf(search: string): string[] {
  if (search.includes(SEARCH_SEPARATOR)) return [];
  return [...search].length <= MAX_GRAM_LENGTH ? [search] : longestGramsOf(search);
}

/**
 * The span of `grams` in an organisation, as a statement of one row (`first`, `last`): the latest
 * first and the earliest last `sort_name` of their users. No row when one of them has no span.
 */
function spanBounds(orgId: string, grams: readonly string[]) {
  return sql`select max(first_sort) as first, min(last_sort) as last from user_search_spans
    where org_id = ${orgId} and gram = any(${grams}::text[]) having count(*) = ${grams.length}`;
}

/** A select of users in the list's order: unsorted is the order they joined (their ids). */
function inListOrder<O>(
  select: SelectQueryBuilder<Database, 'users', O>,
  query: UserListQuery,
  direction: 'asc' | 'desc',
): SelectQueryBuilder<Database, 'users', O> {
  return query.sort === undefined
    ? select.orderBy('id', direction)
    : select.orderBy('sort_name', direction).orderBy('id', direction);
}

/** The key of a search's kept list (migration 0010): its order, filters and search. */
function listKeyOf(query: UserListQuery): string {
  return JSON.stringify([
    query.sort === undefined ? 'id' : 'name',
    query.status ?? null,
    query.isSystemAdmin ?? null,
    query.search?.toLowerCase() ?? '',
  ]);
}

/**
 * The list a search's count may build beside it (`countAndList`): for the request's filters and
 * order, at the data version the count reads.
 */
interface ListOfCount {
  query: UserListQuery;
  version: string;
}

/** The filters of a query as one SQL condition, for aggregates over several of their rows. */
function filtersHold(query: UserListQuery) {
  return sql.join(
    [
      sql`true`,
      ...(query.status ? [sql`status = ${query.status}`] : []),
      ...(query.isSystemAdmin !== undefined ? [sql`is_system_admin = ${query.isSystemAdmin}`] : []),
    ],
    sql` and `,
  );
}

/** The users of organisations. Every method takes the organisation: no query crosses tenants. */
export function createUsersRepository(db: Db, options: UsersRepositoryOptions = {}) {
  const keepSearchesFrom = options.keepSearchesFrom ?? 10_000;
  const maxKeptSearches = options.maxKeptSearches ?? MAX_KEPT_SEARCHES;
  const walkUpTo = options.walkUpTo ?? 10_000;
  const filterWalkUpTo = options.filterWalkUpTo ?? 200_000;
  const walkDenseFrom = options.walkDenseFrom ?? 0.25;
  const parallelWalkWorkers = options.parallelWalkWorkers ?? 0;
  const bucketSearchesFrom = options.bucketSearchesFrom ?? 20_000;
  const bucketsCountedAtOnce = options.bucketsCountedAtOnce ?? 50;
  const walkCap = options.walkCap ?? { factor: 4, least: 20_000 };
  const countBucketsAhead = options.countBucketsAhead ?? false;
  /** The rows that match, the search tested as `test` says. */
  const matching = (orgId: string, query: UserListQuery, test: SearchTest = 'walk', on: Db = db) => {
    let select = on.selectFrom('users').where('org_id', '=', orgId);
    if (query.status) select = select.where('status', '=', query.status);
    if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
    if (query.search) {
      const text = query.search.toLowerCase();
      // strpos is the same test as LIKE '%text%', and costs less per row than LIKE's matcher.
      select = select.where(
        test === 'walk' ? sql<boolean>`strpos(search_text, ${text}) > 0` : searchByIndexes(text, test),
      );
    }
    return select;
  };

  /**
   * The full rows of a page's ids, each looked up by its key (a lateral join): the ids drive,
   * whatever the planner believes about the organisation's size. A plain join let stale
   * statistics (an organisation taken for one row) run the ids' query once per user instead.
   */
  const rowsOf = (orgId: string, ids: AliasedSelectQueryBuilder<{ id: string }, 'page'>) =>
    db
      .selectFrom(ids)
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('users')
            .select([...listedColumns, 'users.sort_name'])
            .where('users.org_id', '=', orgId)
            .whereRef('users.id', '=', 'page.id')
            .as('u'),
        (join) => join.onTrue(),
      )
      .select(rowColumns);

  /** `rowsOf` in the list's order, in `direction`. */
  const pageRows = (
    orgId: string,
    ids: AliasedSelectQueryBuilder<{ id: string }, 'page'>,
    query: UserListQuery,
    direction: 'asc' | 'desc',
  ) => {
    const select = rowsOf(orgId, ids);
    return query.sort === undefined
      ? select.orderBy('u.id', direction)
      : select.orderBy('u.sort_name', direction).orderBy('u.id', direction);
  };

  const versionOf = async (orgId: string): Promise<number | undefined> => {
    const row = await db
      .selectFrom('org_data_versions')
      .select('version')
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row ? Number(row.version) : undefined;
  };

  /** The kept count of the rows that match the filters (not the search): a handful of rows. */
  const keptCount = (orgId: string, query: UserListQuery) => {
    let counts = db
      .selectFrom('user_counts')
      .select(sql<string>`coalesce(sum(n), 0)`.as('total'))
      .where('org_id', '=', orgId);
    if (query.status) counts = counts.where('status', '=', query.status);
    if (query.isSystemAdmin !== undefined) counts = counts.where('is_system_admin', '=', query.isSystemAdmin);
    return counts;
  };

  async function countWithoutSearch(orgId: string, query: UserListQuery): Promise<number> {
    return Number((await keptCount(orgId, query).executeTakeFirstOrThrow()).total);
  }

  /** How many users hold a search of 1–3 characters, from the kept grams, with the filters. */
  const keptGramCount = (orgId: string, query: UserListQuery, gram: string) => {
    let counts = db
      .selectFrom('user_search_grams')
      .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
      .where('org_id', '=', orgId)
      .where('gram', '=', gram);
    if (query.status) counts = counts.where('status', '=', query.status);
    if (query.isSystemAdmin !== undefined) counts = counts.where('is_system_admin', '=', query.isSystemAdmin);
    return counts;
  };

  /** Whether a search is kept counted (migration 0009), and how many users with the filters hold it. */
  const keptSearch = (orgId: string, query: UserListQuery, search: string) =>
    db
      .selectFrom('user_kept_searches')
      .select([
        sql<boolean>`count(*) > 0`.as('kept'),
        sql<string>`coalesce(sum(n) filter (where ${filtersHold(query)}), 0)`.as('n'),
      ])
      .where('org_id', '=', orgId)
      .where('search', '=', search);

  /** The organisation's domains that a search matches whole (`domainMatch`), from the kept keys. */
  async function matchingDomains(orgId: string, search: string): Promise<string[]> {
    const rows = await db
      .selectFrom('user_search_grams')
      .select(sql<string>`substr(gram, 2)`.as('domain'))
      .distinct()
      .where('org_id', '=', orgId)
      .where(domainKeyMatch(search))
      .where('n', '>', 0)
      .execute();
    return rows.map((row) => row.domain);
  }

  /**
   * The exact total of a search, the kept count of its filters alone (which chooses the page's
   * plan), and whether the organisation's search counts are kept (not pending), read in one
   * statement. A search of 1–3 characters is totalled from the kept grams; a longer one from its
   * kept counts (0009) or the count cached for this data version, else counted now.
   */
  async function searchCounts(orgId: string, query: UserListQuery): Promise<SearchCounts> {
    const search = query.search?.toLowerCase() ?? '';
    const key = JSON.stringify([search, query.status ?? null, query.isSystemAdmin ?? null]);
    // (The contract never passes an empty search or one holding the separator, which no gram has.)
    const gramKept = search !== '' && !search.includes(SEARCH_SEPARATOR) && [...search].length <= MAX_GRAM_LENGTH;
    const row = await db
      .selectFrom(keptCount(orgId, query).as('kept'))
      .leftJoin('org_data_versions as v', (join) => join.on('v.org_id', '=', orgId))
      .leftJoin('user_search_counts as c', (join) =>
        join.onRef('c.org_id', '=', 'v.org_id').onRef('c.version', '=', 'v.version').on('c.query_key', '=', key),
      )
      .innerJoin(keptSearch(orgId, query, search).as('k'), (join) => join.onTrue())
      .select(['kept.total as base', 'v.version', 'c.n', 'k.kept', 'k.n as kept_n'])
      .select((eb) => [
        keptCount(orgId, { pageSize: 1, pageNumber: 1 }).as('org_total'),
        query.status === undefined
          ? sql<null>`null`.as('status_users')
          : keptCount(orgId, { pageSize: 1, pageNumber: 1, status: query.status }).as('status_users'),
        query.isSystemAdmin === undefined
          ? sql<null>`null`.as('type_users')
          : keptCount(orgId, { pageSize: 1, pageNumber: 1, isSystemAdmin: query.isSystemAdmin }).as('type_users'),
        gramKept ? keptGramCount(orgId, query, search).as('grams') : sql<null>`null`.as('grams'),
        eb
          .not(eb.exists(db.selectFrom('user_search_grams_pending').select('org_id').where('org_id', '=', orgId)))
          .as('kept_counts'),
      ])
      .executeTakeFirstOrThrow();
    const base = Number(row.base);
    const orgUsers = Number(row.org_total);
    const filterUsers = Math.min(
      row.status_users === null ? Number.POSITIVE_INFINITY : Number(row.status_users),
      row.type_users === null ? Number.POSITIVE_INFINITY : Number(row.type_users),
    );
    const sizes = { base, orgUsers, filterUsers };
    if (!row.kept_counts) {
      // A bulk load that did not finish: every row's search text is read in the covering index.
      const total = row.n ?? (await countAndCache(orgId, query, key, row.version));
      return { total: Number(total), ...sizes, countsKept: false };
    }
    const countsKept = true;
    if (row.grams !== null) return { total: Number(row.grams), ...sizes, countsKept };
    if (row.kept) return { total: Number(row.kept_n), ...sizes, countsKept };
    if (row.n !== undefined && row.n !== null) return { total: Number(row.n), ...sizes, countsKept };
    let plan: CountPlan = orgUsers <= walkUpTo ? 'walk' : 'indexes';
    /** Whether the count may read few enough rows to build the search's list beside it. */
    let listBeside = true;
    if (plan === 'indexes' && walkUpTo > 0) {
      let { heads, beyondDomains } = await headsAtMost(orgId, search);
      const dense = walkDenseFrom * orgUsers;
      // No name or mailbox holds it: its users are those of its domains, whose counts are kept. A
      // search that many may hold, or whose trigrams the index cannot narrow, is walked: the
      // organisation's own index bounds the cost, where the trigram index's candidates are every
      // organisation's users with a word that starts or ends so.
      if (heads <= 0) plan = 'domains';
      else if (!(await trigramIndexServes(search))) plan = 'parallel';
      else if (heads >= dense) {
        // The kept grams count a trigram held in a domain too. When the organisation's domains hold
        // one of the search's trigrams for most of its users, its heads are looked for through the
        // trigram index, up to a bound: "1000." in "bench-1000000.example", held by no head, was
        // walked through 1,000,000 users (129–149 ms) where the index finds none in 0.1 ms.
        const found = beyondDomains >= dense ? HEADS_LOOKED_FOR : await headsUpTo(orgId, search, HEADS_LOOKED_FOR);
        if (found >= HEADS_LOOKED_FOR) plan = 'parallel';
        else heads = found;
      }
      listBeside = heads <= MAX_LISTED_MATCHES;
      // With a filter that few users have, walking that filter's own index (its entries hold the
      // search text) costs less than reading every candidate's row, or every user of the
      // organisation: "triz" among inactive System Admins, 70–76 → 24–26 ms. Counted for the
      // filters alone, then, and cached as any count.
      const candidates = plan === 'indexes' ? heads : plan === 'parallel' ? Number.POSITIVE_INFINITY : 0;
      if (filterWalkCheaper(filterUsers, candidates, filterWalkUpTo)) {
        return { total: await countAndCache(orgId, query, key, row.version), ...sizes, countsKept };
      }
    }
    return { total: await countAndMaybeKeep(orgId, query, search, key, plan, listBeside), ...sizes, countsKept };
  }

  /** Whether the database's pg_trgm takes letters beyond ASCII for word characters (not in the C locale). */
  let unicodeWordCharacters: Promise<boolean> | undefined;

  /** Whether the trigram index can narrow a search in this database (`trigramIndexNarrows`). */
  async function trigramIndexServes(search: string): Promise<boolean> {
    unicodeWordCharacters ??= trigramsTakeEveryScript(db);
    const unicode = await unicodeWordCharacters.catch((error: unknown) => {
      unicodeWordCharacters = undefined;
      throw error;
    });
    // A search with an `@` inside is also found in a head that ends with its part up to that `@`:
    // the index of mailbox ends (migration 0017), led by the organisation, narrows that part.
    return trigramIndexNarrows(search, unicode);
  }

  /**
   * The most users whose name or mailbox can hold a longer search, from the kept counts: the fewest
   * users who hold one of its trigrams, less those it finds through their domain (`heads`); and
   * the fewest who hold one of them otherwise than in an organisation's domain that holds it
   * (`beyondDomains`), a bound that domains shared by most users do not blur. Read only before a
   * search is counted, not with every request's counts.
   */
  async function headsAtMost(orgId: string, search: string): Promise<{ heads: number; beyondDomains: number }> {
    const trigrams = longestGramsOf(search);
    if (trigrams.length === 0) return { heads: 0, beyondDomains: 0 };

    const { rows } = await sql<{ heads: string; beyond_domains: string }>`
      with t as (
        select gram, sum(n) as n from user_search_grams
        where org_id = ${orgId} and gram = any(${trigrams}::text[]) group by gram
      ),
      found as (
        select case when count(*) < ${trigrams.length} then 0 else min(t.n) end as n,
          case when count(*) < ${trigrams.length} then 0 else min(t.n - (
            select coalesce(sum(d.n), 0) from user_search_grams d
            where d.org_id = ${orgId} and ${isDomainKey(sql.ref('d.gram'))} and strpos(d.gram, t.gram) > 0
          )) end as beyond
        from t
      )
      select found.n - (
          select coalesce(sum(n), 0) from user_search_grams where org_id = ${orgId} and ${domainKeyMatch(search)}
        ) as heads,
        found.beyond as beyond_domains
      from found`.execute(db);
    return { heads: Number(rows[0]?.heads ?? 0), beyondDomains: Number(rows[0]?.beyond_domains ?? 0) };
  }

  /** How many users hold a search in their name or mailbox, through the trigram index, counted up to `bound`. */
  async function headsUpTo(orgId: string, search: string, bound: number): Promise<number> {
    const holders = db
      .selectFrom('users')
      .select(sql<number>`1`.as('one'))
      .where('org_id', '=', orgId)
      .where(headHolds(escapeLike(search)))
      .limit(bound);
    const { n } = await db.selectFrom(holders.as('h')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Counts a search from the rows (the walk) and caches the count for this data version. */
  async function countAndCache(orgId: string, query: UserListQuery, key: string, version: unknown) {
    const { n } = await matching(orgId, query).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    if (version !== null && version !== undefined) await cacheCount(db, orgId, key, String(version), total);
    return total;
  }

  async function cacheCount(on: Db, orgId: string, key: string, version: string, total: number) {
    await on
      .insertInto('user_search_counts')
      .values({ org_id: orgId, version, query_key: key, n: total })
      .onConflict((oc) => oc.columns(['org_id', 'query_key']).doUpdateSet({ version, n: total }))
      .execute();
  }

  type Counts = Map<string, { status: string; is_system_admin: boolean; n: number }>;

  /**
   * How a longer search is counted: through the search's indexes, by walking the organisation's
   * index (in parallel where the database can), or from its domains' kept counts alone.
   */
  type CountPlan = 'indexes' | 'walk' | 'parallel' | 'domains';

  /**
   * A longer search's users per status and user type, and how many of them were found in the heads
   * (not through their domain). Through the search's indexes: those of the matching domains from the
   * kept domain counts, the others (the few whose name or mailbox holds it) through the trigram index
   * of the heads. When walked: every user who holds it, by walking the organisation's index, less
   * the domains' users for the heads. From the `domains` alone when the kept counts say that no
   * name or mailbox holds it but in a user whose domain does. Given a `list` (in a transaction), a
   * search found through the trigram index alone stores its list from the same rows (`countAndList`).
   */
  async function countPerStatusAndType(on: Db, orgId: string, search: string, plan: CountPlan, list?: ListOfCount) {
    const walk = plan === 'walk' || plan === 'parallel';
    const inDomains = await on
      .selectFrom('user_search_grams')
      .select(['status', 'is_system_admin', sql<string>`sum(n)`.as('n')])
      .where('org_id', '=', orgId)
      .where(domainKeyMatch(search))
      .groupBy(['status', 'is_system_admin'])
      .execute();
    const sum = (parts: { n: string }[]) => parts.reduce((total, part) => total + Number(part.n), 0);
    type Part = { status: string; is_system_admin: boolean; n: string };
    /** The users found otherwise than through their domain, per status and user type, and whether `list` was stored. */
    const countFound = async (): Promise<{ parts: Part[]; listed: boolean }> => {
      const across = walk ? undefined : acrossTheAt(search);
      if (list && plan === 'indexes' && !across && sum(inDomains) === 0) {
        // Every match is among the rows read here: the list a later page reads is built from them.
        // Storing it can fail where counting would not (a list of the same key that another request
        // committed after this snapshot began is a serialization failure): the count is then taken
        // alone, from a savepoint before it.
        await sql`savepoint list_beside`.execute(on);
        try {
          const parts = await countAndList(on, orgId, search, list);
          await sql`release savepoint list_beside`.execute(on);
          return { parts, listed: true };
        } catch {
          await sql`rollback to savepoint list_beside`.execute(on);
        }
      }
      const users = on.selectFrom('users').where('org_id', '=', orgId);
      const selects = across
        ? // Those found across the `@` are counted from the index of mailbox ends alone (migration
          // 0018), the few whose head holds it besides through the trigram index: "7@ben", a tenth
          // of 1,000,000 users, 183 → 30 ms. (A search with an `@` inside is never found by its domain.)
          [users.where(across), users.where(headHolds(escapeLike(search))).where(sql<boolean>`not ${across}`)]
        : walk
          ? [matching(orgId, { pageSize: 1, pageNumber: 1, search }, 'walk', on)]
          : [
              matching(orgId, { pageSize: 1, pageNumber: 1, search }, [], on).where(
                sql<boolean>`not (${domainMatch(search, sql`search_domain(search_text)`)})`,
              ),
            ];
      const parts: Part[] = [];
      for (const select of selects) {
        const counted = await select
          .select(['status', 'is_system_admin', sql<string>`count(*)`.as('n')])
          .groupBy(['status', 'is_system_admin'])
          .execute();
        parts.push(...counted);
      }
      return { parts, listed: false };
    };
    const { parts: inFound, listed } = plan === 'domains' ? { parts: [], listed: false } : await countFound();
    const counts: Counts = new Map();
    for (const part of walk ? [inFound] : [inFound, inDomains]) {
      for (const { status, is_system_admin, n } of part) {
        const id = `${status}/${is_system_admin}`;
        const count = counts.get(id) ?? { status, is_system_admin, n: 0 };
        count.n += Number(n);
        counts.set(id, count);
      }
    }
    return { counts, foundInHeads: walk ? sum(inFound) - sum(inDomains) : sum(inFound), listed };
  }

  /**
   * A search's users per status and user type, found through the trigram index (none through a
   * domain), and in the same statement its list for `list`'s filters and order, stored for the data
   * version the count's snapshot holds, as `buildSearchList` stores one (a newer list is never
   * replaced; more matches than a list holds, none). A sparse search's later pages, and a first page
   * that would read every match, read the list then, rather than every candidate's row a second time:
   * "de Vri", page 3, at 1,000,000 users on PostgreSQL, 108–122 → 61–74 ms.
   */
  async function countAndList(on: Db, orgId: string, search: string, list: ListOfCount) {
    const found = matching(orgId, { pageSize: 1, pageNumber: 1, search }, [], on)
      .select(['id', 'sort_name', 'status', 'is_system_admin'])
      .offset(0);
    const order = list.query.sort === undefined ? sql`id` : sql`sort_name, id`;
    const { rows } = await sql<{ status: string; is_system_admin: boolean; n: string }>`
      with found as materialized (${found}),
      listed as (
        insert into user_search_lists (org_id, list_key, version, ids)
        select ${orgId}::uuid, ${listKeyOf(list.query)}, ${list.version}::bigint,
          (select coalesce(array_agg(id order by ${order}), '{}') from found where ${filtersHold(list.query)})
        where (select count(*) from found where ${filtersHold(list.query)}) <= ${MAX_LISTED_MATCHES}
        on conflict (org_id, list_key) do update
          set version = excluded.version, ids = excluded.ids, built_at = now()
          where user_search_lists.version < excluded.version
      )
      select status, is_system_admin, count(*) as n from found group by status, is_system_admin`.execute(on);
    return rows;
  }

  /**
   * Counts a longer search in one snapshot with the organisation's data version (repeatable read,
   * no locks: writers do not wait for it). When many names or mailboxes hold it, its counts are kept
   * (migration 0009); otherwise the total is cached for the version it was counted at. `plan` says
   * how it is counted (`searchCounts` chooses).
   */
  async function countAndMaybeKeep(
    orgId: string,
    query: UserListQuery,
    search: string,
    key: string,
    plan: CountPlan,
    listBeside: boolean,
  ) {
    const counted = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const version = await tx
          .selectFrom('org_data_versions')
          .select('version')
          .where('org_id', '=', orgId)
          .executeTakeFirst();
        // A dense search reads every user of the organisation: in parallel where the database can
        // (PostgreSQL; the pool turns parallel plans off for pages, which never gain from them).
        if (plan === 'parallel' && parallelWalkWorkers > 0) {
          await sql`set local max_parallel_workers_per_gather = ${sql.lit(parallelWalkWorkers)}`.execute(tx);
        }
        const list = version === undefined || !listBeside ? undefined : { query, version: String(version.version) };
        return { version: version?.version, ...(await countPerStatusAndType(tx, orgId, search, plan, list)) };
      });
    const { counts, foundInHeads } = counted;
    const version = counted.version === undefined ? undefined : String(counted.version);
    if (counted.listed && version !== undefined) await dropStaleLists(orgId, Number(version));
    if (version !== undefined && foundInHeads >= keepSearchesFrom) {
      const kept = await keepSearch(orgId, search, version, counts, plan);
      if (kept) return totalOf(kept, query);
    }
    const total = totalOf(counts, query);
    if (version !== undefined) await cacheCount(db, orgId, key, version, total);
    return total;
  }

  function totalOf(counts: Counts, query: UserListQuery): number {
    let total = 0;
    for (const count of counts.values()) {
      const holds =
        (query.status === undefined || count.status === query.status) &&
        (query.isSystemAdmin === undefined || count.is_system_admin === query.isSystemAdmin);
      if (holds) total += count.n;
    }
    return total;
  }

  /**
   * Keeps a search's counts, taken at `version`, while holding a share lock on the organisation's
   * data version, which every writer's count trigger waits for: no write can fall between the
   * counts and the keeping. If writes moved the version since, the search is counted again under
   * the lock (writers wait for that count, once per search kept). Nothing is kept once the
   * organisation keeps its limit of searches. Rows are written in key order, as the triggers do.
   */
  function keepSearch(
    orgId: string,
    search: string,
    version: string,
    counted: Counts,
    plan: CountPlan,
  ): Promise<Counts | undefined> {
    return db.transaction().execute(async (tx) => {
      const now = await tx
        .selectFrom('org_data_versions')
        .select('version')
        .where('org_id', '=', orgId)
        .forShare()
        .executeTakeFirst();
      if (now === undefined) return undefined;
      const { searches } = await tx
        .selectFrom('user_kept_searches')
        .select(sql<string>`count(distinct search)`.as('searches'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      if (Number(searches) >= maxKeptSearches) return undefined;
      const counts =
        String(now.version) === version
          ? counted
          : (await countPerStatusAndType(tx, orgId, search, plan === 'parallel' ? 'walk' : plan)).counts;
      if (counts.size === 0) return counts;
      const rows = [...counts.values()]
        .sort((a, b) =>
          a.status === b.status ? Number(a.is_system_admin) - Number(b.is_system_admin) : a.status < b.status ? -1 : 1,
        )
        .map((count) => ({ org_id: orgId, search, ...count }));
      await tx
        .insertInto('user_kept_searches')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute();
      return counts;
    });
  }

  /**
   * Where a search's matches lie in the order by name (migration 0016): between the latest first and
   * the earliest last `sort_name` of its grams (itself when it is 1–3 characters long, else its
   * trigrams), and how many of the organisation's users lie there (from the page buckets, a bucket
   * or two more), of how many (its kept count). Undefined when a gram has no span (nobody holds
   * it) or the search holds the separator, which no gram does.
   */
  async function searchSpan(orgId: string, search: string): Promise<Span | undefined> {
    const grams = spanGramsOf(search);
    if (grams.length === 0) return undefined;
    const { rows } = await sql<{ first: string | null; last: string | null; within: string; users: string }>`
      with s as (${spanBounds(orgId, grams)}),
      start as (
        -- The bucket of the span's first user: the last that starts before its name, else the first.
        select b.sort_name, b.id from user_page_buckets b, s
        where b.org_id = ${orgId} and b.by_name and b.sort_name < s.first
        union all
        select '', '00000000-0000-0000-0000-000000000000'::uuid
        order by 1 desc, 2 desc limit 1
      )
      select s.first, s.last,
        (select coalesce(sum(${SUM_OF_BUCKET}), 0) from user_page_buckets b, start
         where b.org_id = ${orgId} and b.by_name and (b.sort_name, b.id) >= (start.sort_name, start.id)
           and b.sort_name <= s.last) as within,
        (select coalesce(sum(c.n), 0) from user_counts c where c.org_id = ${orgId}) as users
      from s`.execute(db);
    const row = rows[0];
    if (!row || row.first === null || row.last === null) return undefined;
    return {
      orgId,
      grams,
      share: Number(row.users) > 0 ? Math.min(1, Number(row.within) / Number(row.users)) : 1,
    };
  }

  /**
   * The first page of a list without a search, its kept total a column of its rows: it skips no
   * rows, so they are read straight from the ordered index, a statement PostgreSQL plans in a third
   * of the time of `shallowPage`'s deferred join. No rows means that no user matches: a total of 0.
   */
  async function firstPage(orgId: string, query: UserListQuery): Promise<UserPage> {
    const direction = query.sort === '-name' ? 'desc' : 'asc';
    const select = matching(orgId, query).select([...listedColumns, keptCount(orgId, query).as('total')]);
    const rows = await inListOrder(select, query, direction).limit(query.pageSize).execute();
    const users: ListedUser[] = rows.map(({ total: _, ...user }) => user);
    return { users, total: Number(rows[0]?.total ?? 0) };
  }

  /**
   * A page near the start of a list without a search, and its kept total, in one statement: such a
   * page does not depend on the total (it is read in its own order from the start), so the two
   * need not wait for each other.
   */
  async function shallowPage(orgId: string, query: UserListQuery, offset: number): Promise<UserPage> {
    const ascending = query.sort !== '-name';
    const direction = ascending ? 'asc' : 'desc';
    const ids = pageIds(orgId, query, offset, query.pageSize, ascending);
    let page = rowsOf(orgId, ids.as('page')).select('u.sort_name');
    page =
      query.sort === undefined
        ? page.orderBy('u.id', direction)
        : page.orderBy('u.sort_name', direction).orderBy('u.id', direction);
    let select = db
      .selectFrom(keptCount(orgId, query).as('kept'))
      .leftJoinLateral(page.as('u'), (join) => join.onTrue())
      .select(['kept.total', ...rowColumns]);
    select =
      query.sort === undefined
        ? select.orderBy('u.id', direction)
        : select.orderBy('u.sort_name', direction).orderBy('u.id', direction);
    const rows = await select.execute();
    const total = Number(rows[0]?.total ?? 0);
    const users: ListedUser[] = [];
    for (const { total: _, ...user } of rows) if (user.id !== null) users.push(user as ListedUser);
    return { users, total };
  }

  /** The index in a bucket's `n` (from 0) of each status and user type that the filters take. */
  const groupsOf = (query: UserListQuery) =>
    USER_STATUSES.filter((status) => query.status === undefined || status === query.status).flatMap((status) =>
      [false, true]
        .filter((admin) => query.isSystemAdmin === undefined || admin === query.isSystemAdmin)
        .map((admin) => statusGroup(status, admin)),
    );

  /**
   * The page bucket (migration 0013) of the list's user at `position` (in ascending order, counted
   * from 0): its key and how many of the list's users come before it, from the buckets' counts of
   * the list's statuses and user types. Undefined while the organisation has no buckets (a bulk load
   * under way): the page is then walked from the nearer end.
   */
  async function bucketOf(orgId: string, query: UserListQuery, position: number) {
    // SQL arrays count from 1.
    const users = sql.join(
      groupsOf(query).map((group) => sql`n[${sql.lit(group + 1)}]`),
      sql` + `,
    );
    const { rows } = await sql<{ sort_name: string; id: string; before: string }>`
      select sort_name, id, before from (
        select sort_name, id,
          coalesce(sum(users) over (order by sort_name, id rows between unbounded preceding and 1 preceding), 0) as before
        from (
          select sort_name, id, ${users} as users from user_page_buckets
          where org_id = ${orgId} and by_name = ${query.sort !== undefined}
        ) b
      ) b
      where before <= ${position}
      order by sort_name desc, id desc
      limit 1`.execute(db);
    const bucket = rows[0];
    return bucket && { sortName: bucket.sort_name, id: bucket.id, before: Number(bucket.before) };
  }

  /**
   * The part (migration 0024) of a search's match at `position` (ascending, from 0, of `total`
   * matches with the filters): its first key and the matches before it, from the counts per part of
   * the list's order of a gram that the same users hold, added up from the nearer end. The page is
   * then walked from that key past fewer than one part's users. The gram is the search itself when
   * it has one to three characters; for a longer one, one of its three-character grams whose users
   * with the filters are as many as the search's: every user holding the search holds the gram, so
   * then they are the same users ("9@org-1", which only the users of mailboxes ending in 9 hold,
   * as they do "9@o"); or the search itself, when it is one of the heavy searches the parts count.
   * Undefined when the organisation has no parts (small, or never bulk-loaded nor recounted), or no
   * such gram: the search's page buckets are counted instead.
   */
  async function searchPartOf(orgId: string, query: UserListQuery, position: number, total: number) {
    const search = query.search?.toLowerCase() ?? '';
    const grams = [...search].length <= MAX_GRAM_LENGTH ? [search] : longestGramsOf(search);
    const fromEnd = position > total / 2;
    const direction = sql.raw(fromEnd ? 'desc' : 'asc');
    const byName = query.sort !== undefined;
    const { rows } = await sql<{ gram: string; sort_name: string; id: string; n: number[] }>`
      select * from (
        select search as gram, sort_name, id, n from user_part_searches
        where org_id = ${orgId} and by_name = ${byName} and search = ${search}
        union all
        select gram, sort_name, id, n from user_part_grams
        where org_id = ${orgId} and by_name = ${byName} and gram = any(${grams}::text[])
      ) p
      order by gram, sort_name ${direction}, id ${direction}`.execute(db);
    const groups = groupsOf(query);
    const parts = new Map<string, { sortName: string; id: string; matches: number }[]>();
    for (const row of rows) {
      const matches = groups.reduce((sum, group) => sum + (row.n[group] ?? 0), 0);
      const ofGram = parts.get(row.gram) ?? [];
      ofGram.push({ sortName: row.sort_name, id: row.id, matches });
      parts.set(row.gram, ofGram);
    }
    const same = [...parts.values()].find((ofGram) => ofGram.reduce((sum, part) => sum + part.matches, 0) === total);
    let passed = 0;
    for (const part of same ?? []) {
      const before = fromEnd ? total - passed - part.matches : passed;
      if (part.matches > 0 && (fromEnd ? before <= position : position < passed + part.matches)) {
        return { sortName: part.sortName, id: part.id, before };
      }
      passed += part.matches;
    }
    return undefined;
  }

  /**
   * The page bucket of a search's match at `position` (ascending, from 0, of `total` matches with
   * the filters), from the search's counts per bucket (migration 0014). The buckets of the list's
   * order are read from the nearer end with the counts they have for their present version; those
   * they lack are counted (`countSearchInBuckets`), a few at a time, only until the position is
   * reached. Undefined while the organisation has no buckets.
   */
  async function searchBucketOf(orgId: string, query: UserListQuery, position: number, total: number) {
    const search = query.search?.toLowerCase() ?? '';
    const byName = query.sort !== undefined;
    const fromEnd = position > total / 2;
    // From the counts per part of the search's gram, or of a gram the same users hold, where kept.
    const part = await searchPartOf(orgId, query, position, total);
    if (part) return part;
    const direction = sql.raw(fromEnd ? 'desc' : 'asc');
    // By name, a bucket wholly outside the span of the search's grams (migration 0016) holds none
    // of its matches, and is passed without counting: "ari" by −name, page 40, past the names of
    // other scripts that sort after every Latin one.
    const grams = byName ? spanGramsOf(search) : [];
    // Only by name: the span's two tests per bucket are as many fields more to read (1–2 ms on PGlite).
    const spanTests =
      grams.length > 0
        ? sql`, coalesce(b.sort_name < span.first, false) as before_span,
            coalesce(b.sort_name > span.last, false) as after_span`
        : sql``;
    const spanJoin = grams.length > 0 ? sql`left join (${spanBounds(orgId, grams)}) span on true` : sql``;
    const { rows: buckets } = await sql<{
      sort_name: string;
      id: string;
      n: number[] | null;
      before_span?: boolean;
      after_span?: boolean;
    }>`
      select b.sort_name, b.id, case when s.version = b.version then s.n end as n ${spanTests}
      from user_page_buckets b
      ${spanJoin}
      left join user_page_bucket_searches s
        on s.org_id = b.org_id and s.search = ${search} and s.by_name = b.by_name
        and s.sort_name = b.sort_name and s.id = b.id
      where b.org_id = ${orgId} and b.by_name = ${byName}
      order by b.sort_name ${direction}, b.id ${direction}`.execute(db);
    // A bucket's users run from its key to the next bucket's (in ascending order): it lies wholly
    // before the span when the next one starts before it too, after it when it starts after it.
    buckets.forEach((bucket, index) => {
      const next = buckets[fromEnd ? index - 1 : index + 1];
      if (bucket.n === null && (bucket.after_span || next?.before_span === true)) bucket.n = [0, 0, 0, 0, 0, 0, 0, 0];
    });
    const groups = groupsOf(query);
    const size = bucketsCountedAtOnce;
    let added = false;
    /** Counts the buckets from `from` on (a batch) that lack counts for their present version. */
    const count = async (from: number) => {
      const batch = buckets.slice(from, from + size);
      const lacking = batch.filter((bucket) => bucket.n === null).map((bucket) => bucket.id);
      if (lacking.length === 0) return;
      const counted = await countSearchInBuckets(db, orgId, search, byName, lacking);
      added ||= counted.added;
      for (const bucket of batch) bucket.n ??= counted.counts.get(bucket.id) ?? null;
    };
    /**
     * The next batch's count, started while a batch is read (`countBucketsAhead`). Marked handled at
     * once: the page may not need it, or fail first, and a rejection nobody awaits must not be
     * taken for an unhandled one (which ends the process).
     */
    let ahead: Promise<void> | undefined;
    const countAhead = (from: number) => {
      const counting = count(from);
      counting.catch(() => undefined);
      return counting;
    };
    const locate = async () => {
      /** The matches with the filters among the list's buckets passed, from the nearer end. */
      let passed = 0;
      for (let from = 0; from < buckets.length; from += size) {
        const counting = ahead ?? count(from);
        ahead = countBucketsAhead && from + size < buckets.length ? countAhead(from + size) : undefined;
        await counting;
        for (const bucket of buckets.slice(from, from + size)) {
          if (bucket.n === null) return undefined; // Cut or rebuilt meanwhile: walk instead.
          const n = bucket.n;
          const matches = groups.reduce((sum, group) => sum + (n[group] ?? 0), 0);
          const before = fromEnd ? total - passed - matches : passed;
          if (matches > 0 && (fromEnd ? before <= position : position < passed + matches)) {
            return { sortName: bucket.sort_name, id: bucket.id, before };
          }
          passed += matches;
        }
      }
      return undefined;
    };
    // A batch counted ahead and not needed keeps its counts for later pages; nobody waits for it.
    const found = await locate();
    if (added) await dropStaleBucketSearches(orgId);
    return found;
  }

  /**
   * Drops the counts per bucket that are no longer read: those of buckets no longer there (a
   * rebuild), and, past the organisation's limit of searches and orders, those counted least
   * recently (not those its load or recount counted, migration 0022). Rows another request holds
   * are left to it, as the lists' cleanup does. Run only when counts were added (a new search, a
   * cut or rebuilt bucket), not with every deep page.
   */
  async function dropStaleBucketSearches(orgId: string): Promise<void> {
    await sql`
      delete from user_page_bucket_searches s
      where s.org_id = ${orgId} and not exists (
        select 1 from user_page_buckets b
        where b.org_id = s.org_id and b.by_name = s.by_name and b.sort_name = s.sort_name and b.id = s.id
      )`.execute(db);
    await sql`
      delete from user_page_bucket_searches
      where org_id = ${orgId} and (search, by_name, sort_name, id) in (
        select search, by_name, sort_name, id from user_page_bucket_searches
        where org_id = ${orgId} and (search, by_name) in (
          select search, by_name from user_page_bucket_searches where org_id = ${orgId}
          group by search, by_name having not bool_or(found_at_load)
          order by max(counted_at) desc offset ${MAX_BUCKET_SEARCHES}
        )
        for update skip locked
      )`.execute(db);
  }

  /**
   * `pageIds` of a search, walking at most the first `cap` entries of the filters' list in the
   * given direction: fewer than `limit` ids when the page lies past them.
   */
  function cappedPageIds(
    orgId: string,
    query: UserListQuery,
    skip: number,
    limit: number,
    ascending: boolean,
    cap: number,
    span?: Span,
  ) {
    const { search, ...filters } = query;
    const direction = ascending ? 'asc' : 'desc';
    const entries = withinSpan(matching(orgId, filters), query, span).select(['id', 'sort_name', 'search_text']);
    const walked = inListOrder(entries, query, direction).limit(cap);
    const ids = db
      .selectFrom(walked.as('w'))
      .select('w.id as id')
      .where(sql<boolean>`strpos(w.search_text, ${search?.toLowerCase() ?? ''}) > 0`);
    const ordered =
      query.sort === undefined
        ? ids.orderBy('w.id', direction)
        : ids.orderBy('w.sort_name', direction).orderBy('w.id', direction);
    return ordered.offset(skip).limit(limit);
  }

  /** The ids of rows `skip` to `skip + limit` of the list in the given direction. */
  function pageIds(orgId: string, query: UserListQuery, skip: number, limit: number, ascending: boolean, span?: Span) {
    const ids = withinSpan(matching(orgId, query), query, span).select('id');
    return inListOrder(ids, query, ascending ? 'asc' : 'desc')
      .offset(skip)
      .limit(limit);
  }

  /**
   * The matches of a search whose matches are sparse, with the filters: from the search's indexes
   * alone (`offset 0` keeps the planner from mixing in the filters' indexes), then filtered.
   */
  function sparseMatches(orgId: string, query: UserListQuery, test: SearchTest) {
    const matches = matching(
      orgId,
      { pageSize: 1, pageNumber: 1, ...(query.search ? { search: query.search } : {}) },
      test,
    )
      .select(['id', 'sort_name', 'status', 'is_system_admin'])
      .offset(0);
    let select = db.selectFrom(matches.as('matches'));
    if (query.status) select = select.where('matches.status', '=', query.status);
    if (query.isSystemAdmin !== undefined) select = select.where('matches.is_system_admin', '=', query.isSystemAdmin);
    return select;
  }

  /** A page of a search whose matches are sparse: every match is read, then sorted. */
  function sparseSearchPageIds(
    orgId: string,
    query: UserListQuery,
    test: SearchTest,
    skip: number,
    limit: number,
    ascending: boolean,
  ) {
    const direction = ascending ? 'asc' : 'desc';
    const ids = sparseMatches(orgId, query, test).select('matches.id as id');
    const ordered =
      query.sort === undefined
        ? ids.orderBy('matches.id', direction)
        : ids.orderBy('matches.sort_name', direction).orderBy('matches.id', direction);
    return ordered.offset(skip).limit(limit);
  }

  /**
   * Builds the list of a sparse search's matches (search, filters and order, as `listKey` names
   * them; through the search's indexes when the trigram index serves it, else by walking the
   * organisation's index) for the organisation's data version, unless a write moves the version
   * first: the INSERT stores it only if its own snapshot still has the version read before the
   * domains, so the list, its domains and its version are of one state of the data. Never replaces
   * a list of a newer version. False when nothing could be built, and the caller reads the page
   * without a list.
   */
  async function buildSearchList(
    orgId: string,
    query: UserListQuery,
    listKey: string,
    trigramServes: boolean,
    span?: Span,
  ): Promise<boolean> {
    const version = await versionOf(orgId);
    if (version === undefined) return false;
    const order = query.sort === undefined ? sql`matches.id` : sql`matches.sort_name, matches.id`;
    const ids = sql<string[]>`coalesce(array_agg(matches.id order by ${order}), '{}')`.as('ids');
    // Walked, the matches are read from the filters' ordered index up to the most a list holds
    // (which the caller's total does not pass): without that bound the planner, which takes a
    // third of the rows to hold any text, read every organisation's users and sorted them.
    const list = trigramServes
      ? sparseMatches(orgId, query, await matchingDomains(orgId, query.search?.toLowerCase() ?? '')).select(ids)
      : db
          .selectFrom(
            inListOrder(withinSpan(matching(orgId, query), query, span).select(['id', 'sort_name']), query, 'asc')
              .limit(MAX_LISTED_MATCHES)
              .as('matches'),
          )
          .select(ids);
    try {
      await db
        .insertInto('user_search_lists')
        .columns(['org_id', 'list_key', 'version', 'ids'])
        .expression(
          db
            .selectFrom('org_data_versions as v')
            .select([
              sql<string>`${orgId}::uuid`.as('org_id'),
              sql<string>`${listKey}::text`.as('list_key'),
              'v.version',
              list.as('ids'),
            ])
            .where('v.org_id', '=', orgId)
            .where('v.version', '=', version),
        )
        .onConflict((oc) =>
          oc
            .columns(['org_id', 'list_key'])
            .doUpdateSet((eb) => ({
              version: eb.ref('excluded.version'),
              ids: eb.ref('excluded.ids'),
              built_at: sql`now()`,
            }))
            .where((eb) => eb('user_search_lists.version', '<', eb.ref('excluded.version'))),
        )
        .execute();
      await dropStaleLists(orgId, version);
      return true;
    } catch {
      // The list is a shortcut: whatever kept it from being stored (a lock, a timeout), the page is
      // read without it. An unreachable database fails that read in turn.
      return false;
    }
  }

  /**
   * Drops an organisation's lists of data versions before `version`, which are never read again,
   * and, past its limit, the least recently built. Rows another request holds are left to it (skip
   * locked), so that two cleanups never wait for each other in opposite orders.
   */
  async function dropStaleLists(orgId: string, version: number): Promise<void> {
    await db
      .deleteFrom('user_search_lists')
      .where('org_id', '=', orgId)
      .where('list_key', 'in', (eb) =>
        eb
          .selectFrom('user_search_lists')
          .select('list_key')
          .where('org_id', '=', orgId)
          .where((w) =>
            w.or([
              w('version', '<', version),
              w(
                'list_key',
                'in',
                w
                  .selectFrom('user_search_lists')
                  .select('list_key')
                  .where('org_id', '=', orgId)
                  .orderBy('built_at', 'desc')
                  .offset(MAX_SEARCH_LISTS),
              ),
            ]),
          )
          .forUpdate()
          .skipLocked(),
      )
      .execute();
  }

  /**
   * The ascending rows `from` (inclusive) to `from + limit` (exclusive) of a sparse search's
   * matches with its filters, from the list of them kept for the organisation's data version
   * (migration 0010), which is built first when there is none: from the search's indexes when the
   * trigram index `serves` it, else by walking (within its `span`); with `build` false, never.
   * Undefined when none could be built or the list holds no row there: the caller then reads the
   * page from the search's indexes.
   */
  async function searchListPage(
    orgId: string,
    query: UserListQuery,
    from: number,
    limit: number,
    { serves, build, span }: { serves: boolean; build: boolean; span?: Span | undefined },
  ): Promise<ListedUser[] | undefined> {
    const listKey = listKeyOf(query);
    // Arrays count from 1, and both ends of a slice are included.
    const ids = db
      .selectFrom('user_search_lists as l')
      .innerJoin('org_data_versions as v', (join) =>
        join.onRef('v.org_id', '=', 'l.org_id').onRef('v.version', '=', 'l.version'),
      )
      .select(sql<string>`unnest(l.ids[${from + 1}::int:${from + limit}::int])`.as('id'))
      .where('l.org_id', '=', orgId)
      .where('l.list_key', '=', listKey);
    const read = () => pageRows(orgId, ids.as('page'), query, 'asc').execute();
    const users = await read();
    if (users.length > 0) return users;
    if (!build || !(await buildSearchList(orgId, query, listKey, serves, span))) return undefined;
    const built = await read();
    return built.length > 0 ? built : undefined;
  }

  /** One page of an organisation's users and the exact number that match the query. */
  async function listUsers(orgId: string, query: UserListQuery): Promise<UserPage> {
    const offset = (query.pageNumber - 1) * query.pageSize;
    if (!query.search && offset === 0) return firstPage(orgId, query);
    if (!query.search && offset < BUCKETED_FROM) return shallowPage(orgId, query, offset);
    const counts = query.search
      ? await searchCounts(orgId, query)
      : {
          total: await countWithoutSearch(orgId, query),
          base: 0,
          orgUsers: 0,
          filterUsers: Number.POSITIVE_INFINITY,
          countsKept: false,
        };
    const { total } = counts;
    if (offset >= total) return { users: [], total };
    if (query.search && counts.countsKept && total === counts.base) {
      // Every user with the filters holds the search (a text of the domain all share, say): the
      // search's pages are the filters' pages, read from their page buckets.
      const { search: _, ...filters } = query;
      return { users: (await listUsers(orgId, filters)).users, total };
    }
    const limit = Math.min(query.pageSize, total - offset);
    const descending = query.sort === '-name';
    // Position of the page's first row in ascending order: descending pages are read ascending.
    const ascendingOffset = descending ? total - offset - limit : offset;
    // Without a bucket, a page is read from whichever end of the list is nearer, so that no page
    // walks past more than half the list.
    const fromEnd = ascendingOffset > total / 2;
    const skip = fromEnd ? total - ascendingOffset - limit : ascendingOffset;
    // With a search, walking the ordered index reads about (skip + limit) × base / total rows;
    // the search's indexes read every match and sort them. Take the cheaper of the two (the
    // walk while the organisation's kept domain counts are pending, and on a short list).
    const base = query.search ? counts.base : total;
    const search = query.search?.toLowerCase() ?? '';
    // By name, a search's matches lie within its span (migration 0016), where a walk starts: it
    // reads about that share of the list to pass all of them, however bunched they are.
    const span =
      search && query.sort !== undefined && counts.countsKept && base > walkUpTo
        ? await searchSpan(orgId, search)
        : undefined;
    const reach = span ? Math.min(base, Math.max(total, Math.ceil(base * span.share))) : base;
    const walked = ((skip + limit) * reach) / total;
    // A search the trigram index cannot narrow has its matches read by walking the whole list (for
    // its kept list): walking to a page within the first quarter of that costs less.
    const served = !search || (await trigramIndexServes(search));
    // With a filter that few users have, its own ordered index is walked to the page, at most every
    // entry of it (`filterWalkCheaper`, the search's candidates estimated from its matches among the
    // filters' users): "δόπουλο" among System Admins, page 10, 84–92 → 12 ms.
    const filterWalk =
      search !== '' &&
      counts.countsKept &&
      walkUpTo > 0 &&
      base > walkUpTo &&
      filterWalkCheaper(counts.filterUsers, (total * counts.orgUsers) / Math.max(base, 1), filterWalkUpTo);
    // Its deep pages are found from its counts per page bucket, taken from the nearer end up to the
    // page (at most half the list; by name, the buckets outside its span are passed uncounted), where
    // its kept list would be built by walking all of it, or all its span: "도윤", page 400 in join
    // order, 135 → 50 ms; "ja" by name, page 400, 115–133 → 57–62 ms at 1,000,000 users.
    const bucketsOverList = !served && skip > 0;
    let walk =
      filterWalk ||
      !counts.countsKept ||
      base <= walkUpTo ||
      walked < 3 * total ||
      (!served && (walked < reach / 4 || bucketsOverList));
    /** The walk met its cap: its matches are bunched, and the page is read as a sparse search's. */
    let capped = false;

    const bucketed = !filterWalk && skip > 0 && walked >= bucketSearchesFrom;
    if (query.search && walk && !filterWalk && !bucketed && counts.countsKept && base > walkUpTo) {
      // The estimate takes the matches as spread evenly through the list's order; when they are
      // bunched far from where the walk starts (a name's letters in the order by name, a script that
      // sorts last), the walk reads most of the list. It reads at most `walkCap` entries, and a page
      // it could not finish in them is read as a sparse or dense search's page is.
      const cap = Math.ceil(Math.max(walkCap.factor * walked, walkCap.least));
      if (cap < reach) {
        const users = await pageRows(
          orgId,
          cappedPageIds(orgId, query, skip, limit, !fromEnd, cap, span).as('page'),
          query,
          fromEnd ? 'desc' : 'asc',
        ).execute();
        if (users.length === limit) {
          if (fromEnd !== descending) users.reverse();
          return { users, total };
        }
        walk = false;
        capped = true;
      }
    }

    let bucket: Awaited<ReturnType<typeof bucketOf>>;
    if (!query.search) {
      if (ascendingOffset >= BUCKETED_FROM) bucket = await bucketOf(orgId, query, ascendingOffset);
    } else if (counts.countsKept && (walk ? bucketed : total > MAX_LISTED_MATCHES)) {
      // A deep page of a search whose list an earlier page built reads it (a first page whose walk
      // met its cap builds one): "ν" by name, page 40 after page 1, 170–250 → 3 ms.
      if (walk && total <= MAX_LISTED_MATCHES) {
        const users = await searchListPage(orgId, query, ascendingOffset, limit, { serves: served, build: false });
        if (users) {
          if (descending) users.reverse();
          return { users, total };
        }
      }
      // A deep page of a search that many users hold (or one whose walk met its cap): from its
      // counts per bucket.
      bucket = await searchBucketOf(orgId, query, ascendingOffset, total);
    }

    let ids: ReturnType<typeof pageIds> | ReturnType<typeof sparseSearchPageIds>;
    let ascending: boolean;
    if (bucket) {
      // Deep page: start at its bucket's key, walk past fewer than one bucket's users.
      ascending = true;
      ids = pageIds(orgId, query, ascendingOffset - bucket.before, limit, true).where(
        query.sort === undefined
          ? sql<boolean>`id >= ${bucket.id}`
          : sql<boolean>`(sort_name, id) >= (${bucket.sortName}, ${bucket.id})`,
      );
    } else {
      ascending = !fromEnd;
      // Past a sparse search's first page (from either end), its kept list of matches is read; so is
      // the first page of one whose walk met its cap or that the trigram index cannot narrow: their
      // matches are then read once for the list, not for every page.
      if (!walk && total <= MAX_LISTED_MATCHES) {
        // A sparse search's first page reads the list its count built, if any, but builds none.
        const build = skip > 0 || capped || !served;
        const users = await searchListPage(orgId, query, ascendingOffset, limit, { serves: served, build, span });
        if (users) {
          if (descending) users.reverse();
          return { users, total };
        }
      }
      ids = walk
        ? pageIds(orgId, query, skip, limit, ascending, span)
        : sparseSearchPageIds(
            orgId,
            query,
            served ? await matchingDomains(orgId, search) : 'walk',
            skip,
            limit,
            ascending,
          );
    }

    // The ids of the page come from an index-only walk; only those rows are read in full.
    const users = await pageRows(orgId, ids.as('page'), query, ascending ? 'asc' : 'desc').execute();
    if (ascending === descending) users.reverse();
    return { users, total };
  }

  return { listUsers };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

/**
 * What the database engine allows: PostgreSQL walks a dense search with two parallel workers and
 * counts page buckets on two connections; PGlite runs one statement at a time.
 */
export function engineOptions(engine: 'pglite' | 'postgres'): UsersRepositoryOptions {
  const postgres = engine === 'postgres';
  return { parallelWalkWorkers: postgres ? 2 : 0, countBucketsAhead: postgres };
}
