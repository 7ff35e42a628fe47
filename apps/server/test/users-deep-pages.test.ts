import { PAGE_SIZE_OPTIONS, type UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedOrganization } from '../src/db/seed.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** The plain OFFSET query: slow on deep pages, but obviously right. The reference. */
async function naivePage(server: TestServer, orgId: string, query: UserListQuery): Promise<string[]> {
  const { db } = server.database;
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

describe('deep pages of a large organisation', () => {
  let server: TestServer;
  let orgId: string;
  const USERS = 12_345;

  beforeAll(async () => {
    server = await startTestServer();
    orgId = await seedOrganization(server.database.db, { name: 'Large', slug: 'large', users: USERS, seed: 9 });
  }, 120_000);
  afterAll(() => server.close());

  const shapes: Omit<UserListQuery, 'pageNumber'>[] = [
    { pageSize: 25 },
    { pageSize: 25, sort: 'name' },
    { pageSize: 50, sort: '-name' },
    { pageSize: 100, status: 'active', sort: 'name' },
    { pageSize: 25, isSystemAdmin: false, sort: '-name' },
    { pageSize: 25, status: 'pending', isSystemAdmin: false },
  ];

  it('answers every page exactly as a plain OFFSET query would, from either end and from anchors', async () => {
    const users = createUsersRepository(server.database.db);
    for (const shape of shapes) {
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      const lastPage = Math.ceil(total / shape.pageSize);
      const pages = new Set([
        1,
        2,
        199,
        201,
        202,
        Math.floor(lastPage / 2),
        Math.floor(lastPage / 2) + 1,
        lastPage - 1,
        lastPage,
      ]);
      for (const pageNumber of [...pages].filter((n) => n >= 1 && n <= lastPage)) {
        const query = { ...shape, pageNumber };
        const page = await users.listUsers(orgId, query);
        expect(
          page.users.map((u) => u.id),
          JSON.stringify(query),
        ).toEqual(await naivePage(server, orgId, query));
      }
    }
    expect(PAGE_SIZE_OPTIONS).toContain(25);
    const anchors = await server.database.db
      .selectFrom('user_page_anchors')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(anchors.n).toBeGreaterThan(0);
  });

  const searchLists = async () =>
    (
      await server.database.db
        .selectFrom('user_search_lists')
        .select('list_key')
        .where('org_id', '=', orgId)
        .orderBy('list_key')
        .execute()
    ).map((row) => row.list_key);

  it('answers every page of a sparse search exactly as a plain OFFSET query would, from its kept list', async () => {
    const users = createUsersRepository(server.database.db, { walkUpTo: 0 });
    const searchShapes: Omit<UserListQuery, 'pageNumber'>[] = [
      { pageSize: 25, search: 'son', sort: 'name' },
      { pageSize: 10, search: 'SON', status: 'active', sort: '-name' },
      { pageSize: 25, search: 'son', isSystemAdmin: false },
      { pageSize: 25, search: 'ann', isSystemAdmin: false },
      { pageSize: 5, search: 'mit', status: 'pending', sort: 'name' },
    ];
    for (const shape of searchShapes) {
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      const lastPage = Math.ceil(total / shape.pageSize);
      expect(lastPage, JSON.stringify(shape)).toBeGreaterThan(3);
      for (let pageNumber = 1; pageNumber <= lastPage + 1; pageNumber++) {
        const query = { ...shape, pageNumber };
        const page = await users.listUsers(orgId, query);
        expect(page.total, JSON.stringify(query)).toBe(total);
        expect(
          page.users.map((u) => u.id),
          JSON.stringify(query),
        ).toEqual(await naivePage(server, orgId, query));
      }
    }
    // Every shape went past its first page through a kept list, one per search, filters and order.
    expect((await searchLists()).length).toBe(searchShapes.length);
  });

  it("reads a deep page of a sparse search from the search's list, not from the rows", async () => {
    const users = createUsersRepository(server.database.db, { walkUpTo: 0 });
    const query: UserListQuery = { pageSize: 25, pageNumber: 2, search: 'son', sort: 'name' };
    const page = await users.listUsers(orgId, query);
    // The list reversed behind the repository's back (the data version stays): the page follows it.
    await sql`update user_search_lists set ids = array(select unnest(ids) order by 1 desc)
      where org_id = ${orgId} and list_key = ${JSON.stringify(['name', null, null, 'son'])}`.execute(
      server.database.db,
    );
    const fromList = await users.listUsers(orgId, query);
    expect(fromList.users.map((u) => u.id)).not.toEqual(page.users.map((u) => u.id));
    await server.database.db.deleteFrom('user_search_lists').execute();
    expect((await users.listUsers(orgId, query)).users).toEqual(page.users);
  });

  it("rebuilds a search's list after a change, so a deep page of a search is never stale", async () => {
    const users = createUsersRepository(server.database.db, { walkUpTo: 0 });
    await server.database.db.deleteFrom('user_search_lists').execute();
    const query: UserListQuery = { pageSize: 25, pageNumber: 3, search: 'son', sort: 'name' };
    const before = await users.listUsers(orgId, query);
    expect(await searchLists()).toEqual([JSON.stringify(['name', null, null, 'son'])]);
    // A matching user whose name sorts first shifts every later page by one.
    await sql`update users set sort_name = '' where org_id = ${orgId} and id = (select id from users where org_id = ${orgId} and strpos(search_text, 'son') > 0 order by sort_name desc limit 1)`.execute(
      server.database.db,
    );
    const after = await users.listUsers(orgId, query);
    expect(after.users.map((u) => u.id)).toEqual(await naivePage(server, orgId, query));
    expect(after.users[1]?.id).toBe(before.users[0]?.id);
    // Lists of the older data version are dropped when one is built.
    expect(await searchLists()).toEqual([JSON.stringify(['name', null, null, 'son'])]);
  });

  it('uses anchors of the current data version only, so a change never serves a stale page', async () => {
    const users = createUsersRepository(server.database.db);
    const query: UserListQuery = { pageSize: 25, pageNumber: 400, sort: 'name' };
    const before = await users.listUsers(orgId, query);
    // A user whose name sorts first shifts every later page by one.
    await sql`update users set sort_name = '' where org_id = ${orgId} and id = (select id from users where org_id = ${orgId} order by sort_name desc limit 1)`.execute(
      server.database.db,
    );
    const after = await users.listUsers(orgId, query);
    expect(after.users.map((u) => u.id)).toEqual(await naivePage(server, orgId, query));
    expect(after.users[1]?.id).toBe(before.users[0]?.id);
  });
});
