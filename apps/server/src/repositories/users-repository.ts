import type { UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { escapeLike } from '../lib/user-text.ts';

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

/** The users of organisations. Every method takes the organisation: no query crosses tenants. */
export function createUsersRepository(db: Db) {
  const matching = (orgId: string, query: UserListQuery) => {
    let select = db.selectFrom('users').where('org_id', '=', orgId);
    if (query.status) select = select.where('status', '=', query.status);
    if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
    if (query.search) select = select.where('search_text', 'like', `%${escapeLike(query.search.toLowerCase())}%`);
    return select;
  };

  /** Exact totals: kept counts without a search; with one, a count cached per data version. */
  async function countMatching(orgId: string, query: UserListQuery): Promise<number> {
    if (!query.search) {
      let counts = db
        .selectFrom('user_counts')
        .select(sql<string>`coalesce(sum(n), 0)`.as('total'))
        .where('org_id', '=', orgId);
      if (query.status) counts = counts.where('status', '=', query.status);
      if (query.isSystemAdmin !== undefined) counts = counts.where('is_system_admin', '=', query.isSystemAdmin);
      return Number((await counts.executeTakeFirstOrThrow()).total);
    }
    const key = JSON.stringify([query.search.toLowerCase(), query.status ?? null, query.isSystemAdmin ?? null]);
    const cached = await db
      .selectFrom('org_data_versions as v')
      .leftJoin('user_search_counts as c', (join) =>
        join.onRef('c.org_id', '=', 'v.org_id').onRef('c.version', '=', 'v.version').on('c.query_key', '=', key),
      )
      .select(['v.version', 'c.n'])
      .where('v.org_id', '=', orgId)
      .executeTakeFirst();
    if (cached?.n !== undefined && cached.n !== null) return Number(cached.n);
    const { total } = await matching(orgId, query).select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow();
    if (cached) {
      await db
        .insertInto('user_search_counts')
        .values({ org_id: orgId, version: cached.version, query_key: key, n: Number(total) })
        .onConflict((oc) =>
          oc.columns(['org_id', 'query_key']).doUpdateSet({ version: cached.version, n: Number(total) }),
        )
        .execute();
    }
    return Number(total);
  }

  return {
    /** One page of an organisation's users and the exact number that match the query. */
    async listUsers(orgId: string, query: UserListQuery): Promise<UserPage> {
      const total = await countMatching(orgId, query);
      const offset = (query.pageNumber - 1) * query.pageSize;
      if (offset >= total) return { users: [], total };

      // Pages in the back half are read from the far end, so no page walks past more than half.
      const fromEnd = offset > total / 2;
      const limit = Math.min(query.pageSize, total - offset);
      const skip = fromEnd ? total - offset - limit : offset;
      const ascending = (query.sort !== '-name') !== fromEnd;
      const direction = ascending ? 'asc' : 'desc';

      // The ids of the page come from an index-only walk; only those rows are read in full.
      let ids = matching(orgId, query).select('id');
      ids =
        query.sort === undefined
          ? ids.orderBy('id', direction)
          : ids.orderBy('sort_name', direction).orderBy('id', direction);
      const page = ids.offset(skip).limit(limit);

      let select = db
        .selectFrom('users')
        .innerJoin(page.as('page'), 'page.id', 'users.id')
        .select(listedColumns)
        .where('users.org_id', '=', orgId);
      select =
        query.sort === undefined
          ? select.orderBy('users.id', direction)
          : select.orderBy('users.sort_name', direction).orderBy('users.id', direction);
      const users = await select.execute();
      if (fromEnd) users.reverse();
      return { users, total };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
