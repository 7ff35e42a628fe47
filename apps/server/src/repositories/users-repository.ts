import { type LastSignInFilter, SEARCH_WINDOW, type UserListQuery } from '@users-admin/contract';
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type Db, planOnce } from '../db/database.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { escapeLike, searchGrams } from '../lib/user-text.ts';

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

/** Some users of a view by id, or all of it but some (an export's selection). */
export type Selection = { mode: 'some'; ids: string[] } | { mode: 'all'; excluded: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page that starts past SEARCH_WINDOW of a search with more matches than that. */
export class PageBeyondWindow extends Error {}

/** Whether a list's pages stop at SEARCH_WINDOW: a search's with more matches than that. */
export function pagedWithinWindow(query: UserListQuery, total: Total): boolean {
  return query.search !== undefined && (total.relation === 'gte' || total.count > SEARCH_WINDOW);
}

const LISTED_COLUMNS = [
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
 * The list's filters: the query's field and the column it is equal to, in `users` and in
 * `user_counts`. A filter is a line here, its column, its counts' column and an ordered index.
 */
const FILTERS = [
  ['status', 'status'],
  ['isSystemAdmin', 'is_system_admin'],
  ['isExternal', 'is_external'],
] as const satisfies readonly (readonly [keyof UserListQuery, keyof Database['user_counts']])[];

/** The list's orders: the columns of each, the id last so that every order is total. Unsorted is the order of joining. */
const ORDERS = { joined: ['id'], name: ['sort_name', 'id'] } as const;

type OrderColumn = (typeof ORDERS)[keyof typeof ORDERS][number];

function orderOf(query: UserListQuery): { columns: readonly OrderColumn[]; descending: boolean } {
  return { columns: query.sort ? ORDERS.name : ORDERS.joined, descending: query.sort === '-name' };
}

/** The filters' conditions on a table that has their columns (`users` or `user_counts`). */
function whereFilters<T extends 'users' | 'user_counts', O>(
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

type Condition = (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>;

/**
 * The Last sign-in filter as disjoint ranges of `last_sign_in_at` (never: null), on the clock of the
 * request: not kept in counts, as time moves it. "Not in the last 90 days" is two: before, and never.
 */
function lastSignInRanges(filter: LastSignInFilter, now: number): Condition[] {
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
function searchTest(search: string) {
  return sql<boolean>`(case when search_text like ${`%${escapeLike(search.toLowerCase())}%`} then true end)`;
}

/** What the index of `search_grams()` finds a search's candidates by, when it has any (`searchGrams`). */
function searchIndex(search: string) {
  const grams = searchGrams(search.toLowerCase());
  return grams.length > 0 ? sql<boolean>`search_grams(search_text) @> ${grams}::text[]` : undefined;
}

/**
 * A search the planner expects at least this share of the users (with the filters) to match is
 * dense: a walk of the order finds its first SEARCH_WINDOW + 1 matches sooner than its index reads them.
 */
const DENSE_SHARE = 0.1;

/** The users of organisations. Every statement is keyed by one organisation: none crosses tenants. */
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

  /** The organisation's users that the query's filters and search select; `indexed`: with `searchIndex`'s condition. */
  const matching = (
    orgId: string,
    query: UserListQuery,
    indexed: boolean,
    ranges = query.lastSignIn ? lastSignInRanges(query.lastSignIn, Date.now()) : [],
  ) => {
    const filtered = whereFilters(db.selectFrom('users').where('org_id', '=', orgId), query);
    const select = ranges.length > 0 ? filtered.where((eb) => eb.or(ranges.map((range) => range(eb)))) : filtered;
    if (!query.search) return select;
    const index = indexed ? searchIndex(query.search) : undefined;
    const tested = select.where(searchTest(query.search));
    return index ? tested.where(index) : tested;
  };

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
   * How many users match: with only the kept filters, the kept counts; else a count of every match,
   * a search's through its index unless it is `dense`.
   */
  async function countUsers(orgId: string, query: UserListQuery, dense = false): Promise<Total> {
    if (!query.search && !query.lastSignIn) {
      const row = await keptCount(orgId, query).executeTakeFirstOrThrow();
      return { count: Number(row.n), relation: 'eq' };
    }
    if (!query.search && query.lastSignIn) {
      // Range by range: an index counts one range alone, where the planner reads the table for an OR of two.
      const ranges = lastSignInRanges(query.lastSignIn, Date.now());
      const counts = await Promise.all(
        ranges.map((range) =>
          matching(orgId, query, false, [range]).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
        ),
      );
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

  /** A selection's condition on ids: these of the view, or the view but these. */
  const withSelection = <O>(select: SelectQueryBuilder<Database, 'users', O>, selection?: Selection) => {
    if (!selection) return select;
    const ids = (selection.mode === 'some' ? selection.ids : selection.excluded).filter((id) => UUID.test(id));
    if (selection.mode === 'some') return ids.length > 0 ? select.where('id', 'in', ids) : select.where(sql.lit(false));
    return ids.length > 0 ? select.where('id', 'not in', ids) : select;
  };

  return {
    countUsers,

    /** The organisation's slug, which names its exports. */
    async organizationSlug(orgId: string): Promise<string | undefined> {
      const row = await db.selectFrom('organizations').select('slug').where('id', '=', orgId).executeTakeFirst();
      return row?.slug;
    },

    /** One user of the organisation, or undefined (an id that is not a uuid names none). */
    async getUser(orgId: string, id: string): Promise<ListedUser | undefined> {
      if (!UUID.test(id)) return undefined;
      return db
        .selectFrom('users')
        .select(LISTED_COLUMNS)
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** How many users of the view (search and filters, every match) a selection holds; all of them without one. */
    async countSelected(orgId: string, query: UserListQuery, selection?: Selection): Promise<number> {
      if (selection?.mode !== 'some') {
        const { count } = await countUsers(orgId, { ...query, exactTotal: true });
        if (!selection?.excluded.length) return count;
        const some = { mode: 'some', ids: selection.excluded } as const;
        const excluded = await withSelection(matching(orgId, query, false), some).select(sql<string>`count(*)`.as('n'));
        return count - Number((await excluded.executeTakeFirstOrThrow()).n);
      }
      const counted = withSelection(matching(orgId, query, false), selection).select(sql<string>`count(*)`.as('n'));
      return Number((await counted.executeTakeFirstOrThrow()).n);
    },

    /**
     * Every user of the view a selection holds, in the query's order, in batches: each batch walks
     * the order's index on from the last key of the one before, so memory stays flat however many.
     */
    async *walkInOrder(orgId: string, query: UserListQuery, selection?: Selection, batchSize = 2000) {
      const { columns, descending } = orderOf(query);
      const direction = descending ? 'desc' : 'asc';
      let after: { sort_name: string; id: string } | undefined;
      for (;;) {
        let batch = withSelection(matching(orgId, query, false), selection).select([...LISTED_COLUMNS, 'sort_name']);
        if (after) {
          const key = after;
          batch = batch.where((eb) =>
            columns.length === 1
              ? eb('id', descending ? '<' : '>', key.id)
              : eb(eb.refTuple('sort_name', 'id'), descending ? '<' : '>', eb.tuple(key.sort_name, key.id)),
          );
        }
        for (const column of columns) batch = batch.orderBy(column, direction);
        const rows = await batch.limit(batchSize).execute();
        if (rows.length > 0) yield rows as ListedUser[];
        if (rows.length < batchSize) return;
        after = rows[rows.length - 1];
      }
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
