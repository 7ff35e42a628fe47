import { SEARCH_WINDOW, type UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { PageBeyondWindow, type Total, type UsersRepository } from '../../src/repositories/users-repository.ts';

/** The users a query selects, by plain conditions on the table: slow, but obviously right. The reference. */
function naiveMatches(db: Db, orgId: string, query: UserListQuery) {
  let select = db.selectFrom('users').where('org_id', '=', orgId);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
  if (query.isExternal !== undefined) select = select.where('is_external', '=', query.isExternal);
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
  if (query.lastSignIn === '30d') select = select.where('last_sign_in_at', '>=', daysAgo(30));
  if (query.lastSignIn === 'never') select = select.where('last_sign_in_at', 'is', null);
  if (query.lastSignIn === 'not90d')
    select = select.where(sql<boolean>`coalesce(last_sign_in_at < ${daysAgo(90)}, true)`);
  if (query.search) select = select.where(sql<boolean>`strpos(search_text, ${query.search.toLowerCase()}) > 0`);
  return select;
}

/** The ids of a page by the plain OFFSET query. */
export async function naivePage(db: Db, orgId: string, query: UserListQuery): Promise<string[]> {
  const direction = query.sort === '-name' ? 'desc' : 'asc';
  let select = naiveMatches(db, orgId, query).select('id');
  select = query.sort ? select.orderBy('sort_name', direction).orderBy('id', direction) : select.orderBy('id');
  const rows = await select
    .offset((query.pageNumber - 1) * query.pageSize)
    .limit(query.pageSize)
    .execute();
  return rows.map((row) => row.id);
}

/** The total the API must answer: every match counted, capped at SEARCH_WINDOW for a search unless asked exact. */
export async function naiveTotal(db: Db, orgId: string, query: UserListQuery): Promise<Total> {
  const row = await naiveMatches(db, orgId, query).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const count = Number(row.n);
  return query.search && !query.exactTotal && count > SEARCH_WINDOW
    ? { count: SEARCH_WINDOW, relation: 'gte' }
    : { count, relation: 'eq' };
}

/**
 * Expects the page `query` asks for to hold the plain OFFSET query's rows and the reference total,
 * or, for a search's page past SEARCH_WINDOW with more matches than that, to be refused.
 */
export async function expectPageExact(db: Db, orgId: string, users: UsersRepository, query: UserListQuery) {
  const label = JSON.stringify(query);
  const total = await naiveTotal(db, orgId, query);
  const offset = (query.pageNumber - 1) * query.pageSize;
  const countedAll = await naiveTotal(db, orgId, { ...query, exactTotal: true });
  if (query.search && countedAll.count > SEARCH_WINDOW && offset >= SEARCH_WINDOW) {
    await expect(users.listUsers(orgId, query), label).rejects.toBeInstanceOf(PageBeyondWindow);
    return;
  }
  const page = await users.listUsers(orgId, query);
  expect(page.total, label).toEqual(total);
  expect(
    page.users.map((user) => user.id),
    label,
  ).toEqual(await naivePage(db, orgId, query));
}
