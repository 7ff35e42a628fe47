import { SEARCH_WINDOW, type UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { type Db, planOnce } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { nameRange } from './search-gram-initials.ts';
import { createSearchGramStats } from './search-gram-stats.ts';
import {
  type Condition,
  FILTERS,
  filterKeys,
  LISTED_COLUMNS,
  lastSignInCountParts,
  matchingUsers,
  orderOf,
  whereFilters,
} from './user-conditions.ts';

export type ListedUser = Pick<
  UserRow,
  | 'id'
  | 'name'
  | 'email'
  | 'initials'
  | 'first_name'
  | 'last_name'
  | 'status'
  | 'is_external'
  | 'is_system_admin'
  | 'last_sign_in_at'
  | 'created_at'
>;

/** How far a total is known: exactly, or as a lower bound (a search with more than SEARCH_WINDOW matches). */
export interface Total {
  count: number;
  relation: 'eq' | 'gte';
}

export interface UserPage {
  users: ListedUser[];
  total: Total;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page that starts past SEARCH_WINDOW of a search with more matches than that. */
export class PageBeyondWindow extends Error {}

/** Whether a list's pages stop at SEARCH_WINDOW: a search's with more matches than that. */
export function pagedWithinWindow(query: UserListQuery, total: Total): boolean {
  return query.search !== undefined && (total.relation === 'gte' || total.count > SEARCH_WINDOW);
}

/**
 * A search whose candidates (the users holding its rarest pairs, or those the filters select, the
 * fewer) are at most this many is gathered and sorted; one with more is counted to SEARCH_WINDOW + 1
 * and its page walked in the order, which finds it sooner among that many.
 */
const GATHER_MOST = 20_000;

/** Offsets below this are near the start of a search's order: a walk to them passes few entries. */
const SHALLOW = 100;

/**
 * The users of organisations. Every statement is keyed by one organisation: none crosses tenants.
 * Long as a factory is: its functions share the database and the statements planned once.
 */
export function createUsersRepository(db: Db) {
  /** The kept count of the users with the filters: a handful of rows by their key. */
  const keptCount = (orgId: string, query: UserListQuery) =>
    whereFilters(db.selectFrom('user_counts').where('org_id', '=', orgId), query).select(
      sql<string>`coalesce(sum(n), 0)`.as('n'),
    );
  // Its plan never depends on the values: planned once for each set of filters (their values are parameters).
  const filterSets = FILTERS.reduce<UserListQuery[]>(
    (sets, [field]) => sets.flatMap((set) => [set, { ...set, [field]: true }]),
    [{ pageSize: 1, pageNumber: 1 }],
  );
  for (const filters of filterSets) planOnce(keptCount('', filters));

  const matching = (orgId: string, query: UserListQuery, grams: readonly string[] | false, ranges?: Condition[]) =>
    matchingUsers(db, orgId, query, grams, ranges);
  const gramStats = createSearchGramStats(db);

  /**
   * The pairs of a search's characters and the filters' keys to ask the index for, and how many users
   * it has to test: the users holding those (their share of the organisation) or those with the filters
   * (kept counts). Dense: no pair narrows it, so most of those users may match. Near the start of the
   * order, where a walk passes few entries, the rarest pair's holders are counted: pairs held together
   * more often than by chance ("ma", "ar") would have "mar" gather its many matches for its first pages.
   */
  async function searchPlan(orgId: string, query: UserListQuery & { search: string }, offset: number) {
    const { search, exactTotal: _, ...filtered } = query;
    // Without filters the users to test are everyone: one count, not the same one twice.
    const unfiltered = !query.lastSignIn && FILTERS.every(([field]) => query[field] === undefined);
    const everyoneCount = countUsers(orgId, { pageSize: 1, pageNumber: 1 });
    const [chosen, everyone, users] = await Promise.all([
      gramStats.choose(search, filterKeys(query)),
      everyoneCount,
      unfiltered ? everyoneCount : countUsers(orgId, filtered),
    ]);
    const share = offset < SHALLOW ? chosen.byPairs.rarest : chosen.share;
    const candidates = Math.min(everyone.count * share, users.count);
    return { grams: chosen.grams, candidates, dense: chosen.byPairs.grams.length === 0 };
  }

  /**
   * How many users match: without a search, from the kept counts (and the Last sign-in boundary's
   * day in its index); else a count of every match, through the index for `grams` of the search.
   */
  async function countUsers(orgId: string, query: UserListQuery, grams: readonly string[] = []): Promise<Total> {
    if (!query.search && !query.lastSignIn) {
      const row = await keptCount(orgId, query).executeTakeFirstOrThrow();
      return { count: Number(row.n), relation: 'eq' };
    }
    if (!query.search && query.lastSignIn) {
      const { days, rest } = lastSignInCountParts(query.lastSignIn, Date.now());
      const counts = await Promise.all([
        whereFilters(db.selectFrom('sign_in_counts').where('org_id', '=', orgId), query)
          .where(days)
          .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
          .executeTakeFirstOrThrow(),
        ...(rest
          ? [matching(orgId, query, false, [rest]).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()]
          : []),
      ]);
      return { count: counts.reduce((sum, row) => sum + Number(row.n), 0), relation: 'eq' };
    }
    const counted = matching(orgId, query, grams).select(sql<string>`count(*)`.as('n'));
    return { count: Number((await counted.executeTakeFirstOrThrow()).n), relation: 'eq' };
  }

  /**
   * A search's first `most` + 1 matches, found as the planner chooses (through the index for `grams`,
   * or a walk), and counted. When they are all of them, sorted here, they give the page at `offset`
   * wherever it lies in the order. One statement; `users` is empty past the end and when there are more.
   */
  async function searchGathered(
    orgId: string,
    query: UserListQuery,
    offset: number,
    limit: number,
    grams: readonly string[],
    most: number,
  ) {
    const { columns, descending } = orderOf(query);
    const direction = descending ? 'desc' : 'asc';
    const statement = db
      .with(
        (cte) => cte('matches').materialized(),
        () =>
          matching(orgId, query, grams)
            .select(['id', 'sort_name'])
            .limit(most + 1),
      )
      .with('counted', (qb) => qb.selectFrom('matches').select(sql<number>`count(*)::int`.as('total')))
      .selectFrom('counted')
      .leftJoinLateral(
        (eb) => {
          let ids = eb.selectFrom('matches').select('id').where(sql.ref('counted.total'), '<=', most);
          for (const column of columns) ids = ids.orderBy(column, direction);
          return eb
            .selectFrom(ids.offset(offset).limit(limit).as('page'))
            .innerJoin('users as u', (join) => join.on('u.org_id', '=', orgId).onRef('u.id', '=', 'page.id'))
            .select([...LISTED_COLUMNS.map((column) => `u.${column}` as const), 'u.sort_name'])
            .as('p');
        },
        (join) => join.onTrue(),
      )
      .select(['counted.total', ...LISTED_COLUMNS.map((column) => `p.${column}` as const)]);
    let ordered = statement;
    for (const column of columns) ordered = ordered.orderBy(`p.${column}`, direction);
    const found = await ordered.execute();
    const total = found[0]?.total ?? 0;
    const users = found.filter((row) => row.id !== null).map(({ total: _, ...user }) => user as ListedUser);
    return { total, users };
  }

  /**
   * The page at `offset` in the order, or from the far end reversed, walking an ordered index alone
   * past every entry the offset skips (a search is then dense: it finds a page soon); then each row by its key.
   * By name, a search's walk starts at the first initial that can hold a match (`nameRange`).
   */
  async function walkPage(orgId: string, query: UserListQuery, offset: number, limit: number, reversed: boolean) {
    const { columns, descending } = orderOf(query);
    const direction = descending !== reversed ? 'desc' : 'asc';
    const { from, before } = query.sort && query.search ? await nameRange(db, orgId, query.search) : {};
    let ids = matching(orgId, query, false).select('id');
    if (from) ids = ids.where('sort_name', '>=', from);
    if (before) ids = ids.where('sort_name', '<', before);
    for (const column of columns) ids = ids.orderBy(column, direction);
    let rows = db
      .selectFrom(ids.offset(offset).limit(limit).as('page'))
      .innerJoin('users as u', (join) => join.on('u.org_id', '=', orgId).onRef('u.id', '=', 'page.id'))
      .select(LISTED_COLUMNS.map((column) => `u.${column}` as const));
    for (const column of columns) rows = rows.orderBy(`u.${column}`, direction);
    const users = await rows.execute();
    return reversed ? users.reverse() : users;
  }

  /**
   * A search's page and its total up to SEARCH_WINDOW: gathered when it has at most GATHER_MOST
   * candidates (and matches), else counted to SEARCH_WINDOW + 1 and the page walked in the order.
   */
  async function searchPage(orgId: string, query: UserListQuery & { search: string }, offset: number) {
    const { grams, candidates, dense } = await searchPlan(orgId, query, offset);
    // A dense search finds its window soon in a walk; gathering all of its many matches would cost more.
    const most = dense || candidates > GATHER_MOST ? SEARCH_WINDOW : GATHER_MOST;
    const found = await searchGathered(orgId, query, offset, query.pageSize, grams, most);
    const total: Total =
      found.total <= SEARCH_WINDOW ? { count: found.total, relation: 'eq' } : { count: SEARCH_WINDOW, relation: 'gte' };
    if (total.relation === 'gte' && offset >= SEARCH_WINDOW) throw new PageBeyondWindow();
    if (found.total <= most) return { users: found.users, total };
    return { users: await walkPage(orgId, query, offset, query.pageSize, false), total };
  }

  return {
    countUsers,

    /** One user of the organisation with its version (the ETag), or undefined (an id that is not a uuid names none). */
    async getUser(orgId: string, id: string): Promise<(ListedUser & Pick<UserRow, 'version'>) | undefined> {
      if (!UUID.test(id)) return undefined;
      return db
        .selectFrom('users')
        .select([...LISTED_COLUMNS, 'version'])
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * A page of the organisation's users and how many match. A page past the end is empty, with the
     * total; a search's page that starts past SEARCH_WINDOW while more match throws PageBeyondWindow.
     */
    async listUsers(orgId: string, query: UserListQuery): Promise<UserPage> {
      const offset = (query.pageNumber - 1) * query.pageSize;
      if (query.search && !query.exactTotal) return searchPage(orgId, { ...query, search: query.search }, offset);
      const grams = query.search ? (await gramStats.choose(query.search, filterKeys(query))).grams : [];
      const total = await countUsers(orgId, query, grams);
      if (pagedWithinWindow(query, total) && offset >= SEARCH_WINDOW) throw new PageBeyondWindow();
      if (offset >= total.count) return { users: [], total };
      // A page nearer the end is read from the end: fewer index entries to pass.
      const size = Math.min(query.pageSize, total.count - offset);
      const fromEnd = total.count - offset - size;
      const users =
        fromEnd < offset
          ? await walkPage(orgId, query, fromEnd, size, true)
          : await walkPage(orgId, query, offset, size, false);
      return { users, total };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
