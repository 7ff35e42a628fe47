import type { LastSignInFilter, UserListQuery } from '@users-admin/contract';
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KEPT_COUNT_COLUMNS } from '../db/migrations/kept-counts.ts';
import type { Database } from '../db/schema.ts';
import { escapeLike, searchGrams } from '../lib/user-text.ts';

// The list's vocabulary: which users a query selects and in what order, shared by its pages and its export.

/** The columns a listed user is read with. */
export const LISTED_COLUMNS = [
  'id',
  'name',
  'email',
  'initials',
  'first_name',
  'last_name',
  'status',
  'is_external',
  'is_system_admin',
  'last_sign_in_at',
  'created_at',
] as const;

/**
 * The list's filters: the query's field and the column of `users` it is equal to. A new filter needs
 * its column (a migration); in the orders' indexes' include lists, and, for a rare value, a partial
 * index in each order holding every filter's column and the search text (0007), so that its pages
 * and searches are read from an index alone, and a key in `search_keys()` and `filterKeys()` (0010), so
 * that a search with it reads only the users holding both; and its line here. Its counts are kept only if its
 * values are few (KEPT_COUNT_COLUMNS, the count tables' keys, `keptCountFunctions` in its migration):
 * a total then adds a handful of rows; a filter of many values is counted in its index instead.
 */
export const FILTERS = [
  ['status', 'status'],
  ['isSystemAdmin', 'is_system_admin'],
  ['isExternal', 'is_external'],
] as const satisfies readonly (readonly [keyof UserListQuery, (typeof KEPT_COUNT_COLUMNS)[number]])[];

/** The list's orders: the columns of each, the id last so that every order is total. Unsorted is the order of joining. */
export const ORDERS = { joined: ['id'], name: ['sort_name', 'id'] } as const;

type OrderColumn = (typeof ORDERS)[keyof typeof ORDERS][number];

export function orderOf(query: UserListQuery): { columns: readonly OrderColumn[]; descending: boolean } {
  return { columns: query.sort ? ORDERS.name : ORDERS.joined, descending: query.sort === '-name' };
}

/** The filters' conditions on a table that has their columns (`users` or a kept count). */
export function whereFilters<T extends 'users' | 'user_counts' | 'sign_in_counts', O>(
  select: SelectQueryBuilder<Database, T, O>,
  query: UserListQuery,
): SelectQueryBuilder<Database, T, O> {
  let filtered = select;
  for (const [field, column] of FILTERS) {
    const value = query[field];
    if (value !== undefined) {
      filtered = filtered.where((eb: ExpressionBuilder<Database, T>) => eb(eb.ref(column), '=', value as never));
    }
  }
  return filtered;
}

const DAY_MS = 86_400_000;

export type Condition = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/**
 * The Last sign-in filter as disjoint ranges of `last_sign_in_at` (never: null), on the clock of the
 * request. "Not in the last 90 days" is two: before, and never.
 */
export function lastSignInRanges(filter: LastSignInFilter, now: number): Condition[] {
  const daysAgo = (days: number) => new Date(now - days * DAY_MS);
  const never: Condition = (eb) => eb('last_sign_in_at', 'is', null);
  if (filter === 'never') return [never];
  if (filter === '30d') return [(eb) => eb('last_sign_in_at', '>=', daysAgo(30))];
  return [(eb) => eb('last_sign_in_at', '<', daysAgo(90)), never];
}

/**
 * The test of a case-insensitive substring of name or email that every plan makes (a walk of an
 * ordered index only this one): LIKE on the lower-case search text. Inside CASE, whose selectivity
 * the planner takes for a half: the index's condition estimates the matches better, and a search
 * walked is one already found dense, whose walk the planner must not take for a scan of every user.
 */
export function searchTest(search: string) {
  return sql<boolean>`(case when search_text like ${`%${escapeLike(search.toLowerCase())}%`} then true end)`;
}

/** What the index of `search_keys()` finds a search's candidates by, when it has any (`searchGrams`). */
export function searchIndex(search: string) {
  return gramsIndex(searchGrams(search.toLowerCase()));
}

/** What starts a filter's key in `search_keys()`: no search's pair can. */
const KEY_MARK = '\u0001';
const KEYS = { admin: `${KEY_MARK}a`, external: `${KEY_MARK}x`, never: `${KEY_MARK}n` } as const;

/**
 * The keys that `search_keys()` (0010) holds beside a user's pairs for the rare filter values the query
 * asks for: U+0001 and a word, which no search's pair can be (a search with a control character is refused).
 */
export function filterKeys(query: UserListQuery): string[] {
  const keys: string[] = [];
  if (query.status !== undefined && query.status !== 'active') keys.push(`${KEY_MARK}${query.status}`);
  if (query.isSystemAdmin === true) keys.push(KEYS.admin);
  if (query.isExternal === true) keys.push(KEYS.external);
  if (query.lastSignIn === 'never') keys.push(KEYS.never);
  return keys;
}

/**
 * The query without the filters whose keys are among `keys`: the index's condition holds them exactly,
 * and the planner, counting them twice, would add their long ranges in other indexes to the keys'.
 */
function withoutKeyed(query: UserListQuery, keys: readonly string[]): UserListQuery {
  const rest = { ...query };
  if (keys.includes(`${KEY_MARK}${query.status}`)) delete rest.status;
  if (keys.includes(KEYS.admin)) delete rest.isSystemAdmin;
  if (keys.includes(KEYS.external)) delete rest.isExternal;
  if (keys.includes(KEYS.never)) delete rest.lastSignIn;
  return rest;
}

/** The index's condition for users holding every one of `grams` (pairs or filter keys); none for no grams. */
export function gramsIndex(grams: readonly string[]) {
  return grams.length > 0
    ? sql<boolean>`search_keys(search_text, status, is_system_admin, is_external, last_sign_in_at is null) @> ${grams}::text[]`
    : undefined;
}

/**
 * The organisation's users that the query's filters and search select; `grams`: with the index's
 * condition for those pairs of the search (`search-gram-stats.ts`);
 * `ranges`: the Last sign-in filter's ranges, all of them unless told.
 */
export const matchingUsers = (
  db: Db,
  orgId: string,
  query: UserListQuery,
  grams: readonly string[] | false,
  ranges = query.lastSignIn ? lastSignInRanges(query.lastSignIn, Date.now()) : [],
) => {
  const keyed = grams === false ? [] : grams.filter((gram) => gram.startsWith(KEY_MARK));
  const rest = keyed.length > 0 ? withoutKeyed(query, keyed) : query;
  const filtered = whereFilters(db.selectFrom('users').where('org_id', '=', orgId), rest);
  const asked = keyed.includes(KEYS.never) ? [] : ranges;
  const select = asked.length > 0 ? filtered.where((eb) => eb.or(asked.map((range) => range(eb)))) : filtered;
  if (!query.search) return select;
  const index = grams === false ? undefined : gramsIndex(grams);
  const tested = select.where(searchTest(query.search));
  return index ? tested.where(index) : tested;
};

type DayCondition = (eb: ExpressionBuilder<Database, 'sign_in_counts'>) => Expression<SqlBool>;

/**
 * The Last sign-in filter for a count: the whole UTC days it covers, kept in `sign_in_counts` (never
 * is the day '-infinity'), and the part of its boundary's day, counted in `users`.
 */
export function lastSignInCountParts(filter: LastSignInFilter, now: number): { days: DayCondition; rest?: Condition } {
  if (filter === 'never') return { days: (eb) => eb('day', '=', '-infinity') };
  const boundary = now - (filter === '30d' ? 30 : 90) * DAY_MS;
  const dayStart = boundary - (boundary % DAY_MS);
  const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
  const between =
    (from: number, to: number): Condition =>
    (eb) =>
      eb.and([eb('last_sign_in_at', '>=', new Date(from)), eb('last_sign_in_at', '<', new Date(to))]);
  if (filter === '30d') {
    return { days: (eb) => eb('day', '>=', dayOf(dayStart + DAY_MS)), rest: between(boundary, dayStart + DAY_MS) };
  }
  return { days: (eb) => eb('day', '<', dayOf(dayStart)), rest: between(dayStart, boundary) };
}
