import type { UserListQuery } from '@users-admin/contract';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database, UserRow } from '../db/schema.ts';
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
  'id',
  'name',
  'email',
  'initials',
  'first_name',
  'last_name',
  'status',
  'is_external',
  'is_system_admin',
] as const;

/** The users of organisations. Every method takes the organisation: no query crosses tenants. */
export function createUsersRepository(db: Db) {
  const matching = (orgId: string, query: UserListQuery) => {
    let select = db.selectFrom('users').where('org_id', '=', orgId);
    if (query.status) select = select.where('status', '=', query.status);
    if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
    if (query.search) {
      const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
      select = select.where((eb: ExpressionBuilder<Database, 'users'>) => eb('search_text', 'like', pattern));
    }
    return select;
  };

  return {
    /** One page of an organisation's users and the exact number that match the query. */
    async listUsers(orgId: string, query: UserListQuery): Promise<UserPage> {
      const base = matching(orgId, query);
      let page = base.select(listedColumns);
      page =
        query.sort === undefined
          ? page.orderBy('id')
          : page
              .orderBy('sort_name', query.sort === 'name' ? 'asc' : 'desc')
              .orderBy('id', query.sort === 'name' ? 'asc' : 'desc');
      const [users, count] = await Promise.all([
        page
          .limit(query.pageSize)
          .offset((query.pageNumber - 1) * query.pageSize)
          .execute(),
        base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
      ]);
      return { users, total: Number(count.total) };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
