import type { UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import type { UsersRepository } from '../../src/repositories/users-repository.ts';

/** The ids of a page by the plain OFFSET query: slow on deep pages, but obviously right. The reference. */
export async function naivePage(db: Db, orgId: string, query: UserListQuery): Promise<string[]> {
  let select = db.selectFrom('users').select('id').where('org_id', '=', orgId);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
  if (query.search) select = select.where(sql<boolean>`strpos(search_text, ${query.search.toLowerCase()}) > 0`);
  const direction = query.sort === '-name' ? 'desc' : 'asc';
  select = query.sort ? select.orderBy('sort_name', direction).orderBy('id', direction) : select.orderBy('id');
  const rows = await select
    .offset((query.pageNumber - 1) * query.pageSize)
    .limit(query.pageSize)
    .execute();
  return rows.map((row) => row.id);
}

/** Expects the page `query` asks for to hold `total` and the rows of the plain OFFSET query. */
export async function expectPageExact(
  db: Db,
  orgId: string,
  users: UsersRepository,
  query: UserListQuery,
  total: number,
): Promise<void> {
  const page = await users.listUsers(orgId, query);
  expect(page.total, JSON.stringify(query)).toBe(total);
  expect(
    page.users.map((u) => u.id),
    JSON.stringify(query),
  ).toEqual(await naivePage(db, orgId, query));
}

/**
 * Asks for the given pages of each shape (from the count of its pages, more than `moreThan`) and
 * expects each to hold the total of its first page and the rows of the plain OFFSET query.
 */
export async function expectPagesExact(
  db: Db,
  orgId: string,
  users: UsersRepository,
  shapes: readonly Omit<UserListQuery, 'pageNumber'>[],
  pagesOf: (lastPage: number) => number[],
  moreThan: number,
): Promise<void> {
  for (const shape of shapes) {
    const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
    const lastPage = Math.ceil(total / shape.pageSize);
    expect(lastPage, JSON.stringify(shape)).toBeGreaterThan(moreThan);
    for (const pageNumber of new Set(pagesOf(lastPage).filter((n) => n >= 1))) {
      await expectPageExact(db, orgId, users, { ...shape, pageNumber }, total);
    }
  }
}
