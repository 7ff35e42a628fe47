import { SEARCH_WINDOW, type UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { type Db, planOnce } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import {
  type Condition,
  FILTERS,
  LISTED_COLUMNS,
  lastSignInCountParts,
  matchingUsers,
  orderOf,
  searchIndex,
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
 * A search the planner expects at least this share of the users (with the filters) to match is
 * dense: a walk of the order finds its first SEARCH_WINDOW + 1 matches sooner than its index reads them.
 */
const DENSE_SHARE = 0.1;

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

  const matching = (orgId: string, query: UserListQuery, indexed: boolean, ranges?: Condition[]) =>
    matchingUsers(db, orgId, query, indexed, ranges);

  /**
   * Whether a search is dense (DENSE_SHARE): one without grams is; any other by the planner's estimate
   * of its matches through its index (EXPLAIN, from the index's statistics), against the users with the filters.
   */
  async function denseSearch(orgId: string, query: UserListQuery): Promise<boolean> {
    const index = query.search ? searchIndex(query.search) : undefined;
    if (!index) return true;
    const { search: _, ...filtered } = query;
    const [[plan], users] = await Promise.all([
      matching(orgId, filtered, false).where(index).select(sql.lit(1).as('one')).explain('json'),
      countUsers(orgId, filtered),
    ]);
    const json = plan?.['QUERY PLAN'];
    const estimate = Number((typeof json === 'string' ? JSON.parse(json) : json)?.[0]?.Plan?.['Plan Rows']);
    return estimate >= users.count * DENSE_SHARE;
  }

  /**
   * How many users match: without a search, from the kept counts (and the Last sign-in boundary's
   * day in its index); else a count of every match, a search's through its index unless it is `dense`.
   */
  async function countUsers(orgId: string, query: UserListQuery, dense = false): Promise<Total> {
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
    const counted = matching(orgId, query, !dense).select(sql<string>`count(*)`.as('n'));
    return { count: Number((await counted.executeTakeFirstOrThrow()).n), relation: 'eq' };
  }

  /**
   * A search's first SEARCH_WINDOW + 1 matches, counted: a dense one's in join order by a walk of the
   * key (which no search is bunched in), another's through its index. When they are all of them,
   * sorted here, they give the page at `offset` wherever they lie in the order. One statement;
   * `users` is empty past the end and when there are more.
   */
  async function searchWithinWindow(
    orgId: string,
    query: UserListQuery,
    offset: number,
    limit: number,
    dense: boolean,
  ) {
    const { columns, descending } = orderOf(query);
    const direction = descending ? 'desc' : 'asc';
    const statement = db
      .with(
        (cte) => cte('matches').materialized(),
        () => {
          const matches = matching(orgId, query, !dense).select(['id', 'sort_name']);
          return (dense ? matches.orderBy('id') : matches).limit(SEARCH_WINDOW + 1);
        },
      )
      .with('counted', (qb) => qb.selectFrom('matches').select(sql<number>`count(*)::int`.as('total')))
      .selectFrom('counted')
      .leftJoinLateral(
        (eb) => {
          let ids = eb.selectFrom('matches').select('id').where(sql.ref('counted.total'), '<=', SEARCH_WINDOW);
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
   */
  async function walkPage(orgId: string, query: UserListQuery, offset: number, limit: number, reversed: boolean) {
    const { columns, descending } = orderOf(query);
    const direction = descending !== reversed ? 'desc' : 'asc';
    let ids = matching(orgId, query, false).select('id');
    for (const column of columns) ids = ids.orderBy(column, direction);
    let rows = db
      .selectFrom(ids.offset(offset).limit(limit).as('page'))
      .innerJoin('users as u', (join) => join.on('u.org_id', '=', orgId).onRef('u.id', '=', 'page.id'))
      .select(LISTED_COLUMNS.map((column) => `u.${column}` as const));
    for (const column of columns) rows = rows.orderBy(`u.${column}`, direction);
    const users = await rows.execute();
    return reversed ? users.reverse() : users;
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
      const dense = query.search !== undefined && (await denseSearch(orgId, query));
      if (query.search && !query.exactTotal) {
        const found = await searchWithinWindow(orgId, query, offset, query.pageSize, dense);
        if (found.total <= SEARCH_WINDOW) return { users: found.users, total: { count: found.total, relation: 'eq' } };
        if (offset >= SEARCH_WINDOW) throw new PageBeyondWindow();
        const users = await walkPage(orgId, query, offset, query.pageSize, false);
        return { users, total: { count: SEARCH_WINDOW, relation: 'gte' } };
      }
      const total = await countUsers(orgId, query, dense);
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
