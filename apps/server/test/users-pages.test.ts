import {
  errorDocumentSchema,
  LAST_SIGN_IN_FILTERS,
  SEARCH_WINDOW,
  USER_STATUSES,
  type UserListQuery,
  userListDocumentSchema,
  usersPath,
} from '@users-admin/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsers, seedOrganization } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createUsersRepository, PageBeyondWindow, type UsersRepository } from '../src/repositories/users-repository.ts';
import { expectPageExact, naiveTotal } from './support/naive-page.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

/** Every list of an organisation larger than the search window, against plain OFFSET queries. */
describe('pages and totals of an organisation of 4,321 users', () => {
  let server: TestServer;
  let users: UsersRepository;
  let orgId: string;
  const USERS = 4_321;

  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.database;
    orgId = await seedOrganization(db, { name: 'Large', slug: 'large', users: USERS, seed: 9 });
    // A second organisation in the same table: none of its users may show up.
    await seedOrganization(db, { id: uuidv7(), name: 'Other', slug: 'other', users: 500, seed: 3 });
    // As a seed does: the planner's statistics of the demo alone would have it sort every user for a page.
    await sql`analyze users`.execute(db);
    users = createUsersRepository(db);
  }, 120_000);
  afterAll(() => server.close());

  const expectExact = (query: UserListQuery) => expectPageExact(server.database.db, orgId, users, query);

  /** First, second, middle, last but one, last and past the last page of a list of `total`. */
  const pagesOf = (total: number, pageSize: number) => {
    const last = Math.max(1, Math.ceil(total / pageSize));
    return [...new Set([1, 2, Math.floor(last / 2), Math.floor(last / 2) + 1, last - 1, last, last + 1])].filter(
      (n) => n >= 1,
    );
  };

  it('answers every filter and order without a search with the exact total and every page, from either end', async () => {
    const { db } = server.database;
    for (const status of [undefined, ...USER_STATUSES]) {
      for (const isSystemAdmin of [undefined, true, false]) {
        for (const sort of [undefined, 'name', '-name'] as const) {
          const shape = {
            pageSize: 25,
            ...(status && { status }),
            ...(isSystemAdmin !== undefined && { isSystemAdmin }),
          };
          const query: UserListQuery = { ...shape, pageNumber: 1, ...(sort && { sort }) };
          const { count } = await naiveTotal(db, orgId, query);
          for (const pageNumber of pagesOf(count, 25)) await expectExact({ ...query, pageNumber });
        }
      }
    }
  });

  it('answers the data source and last sign-in filters in every order with the exact total and every page', async () => {
    const { db } = server.database;
    for (const isExternal of [undefined, true, false]) {
      for (const lastSignIn of [undefined, ...LAST_SIGN_IN_FILTERS]) {
        for (const sort of [undefined, 'name', '-name'] as const) {
          const query: UserListQuery = {
            pageSize: 25,
            pageNumber: 1,
            ...(isExternal !== undefined && { isExternal }),
            ...(lastSignIn && { lastSignIn }),
            ...(sort && { sort }),
          };
          const { count } = await naiveTotal(db, orgId, query);
          for (const pageNumber of pagesOf(count, 25)) await expectExact({ ...query, pageNumber });
        }
      }
    }
  });

  it('counts the last sign-in filters exactly at their boundaries and at the edges of the boundary days', async () => {
    const { db } = server.database;
    const edgeOrg = await seedOrganization(db, { id: uuidv7(), name: 'Edges', slug: 'edges', users: 50, seed: 4 });
    const now = Date.now();
    const times = [30, 90].flatMap((days) => {
      const boundary = now - days * 86_400_000;
      const dayStart = boundary - (boundary % 86_400_000);
      const dayEdges = [dayStart, dayStart + 86_400_000].flatMap((at) => [at - 1, at, at + 1]);
      return [boundary - 60_000, boundary + 60_000, ...dayEdges];
    });
    await insertUsers(
      db,
      times.map((at, i) => userRow(edgeOrg, `Edge ${i}`, `edge${i}@edges.example`, { last_sign_in_at: new Date(at) })),
    );
    for (const lastSignIn of LAST_SIGN_IN_FILTERS) {
      for (const status of [undefined, 'active'] as const) {
        const query: UserListQuery = { pageSize: 25, pageNumber: 1, lastSignIn, ...(status && { status }) };
        expect(await users.countUsers(edgeOrg, query), lastSignIn).toEqual(await naiveTotal(db, edgeOrg, query));
      }
    }
  });

  it('counts a search with more matches than the window as "at least 1,000" and pages through the window only', async () => {
    const query: UserListQuery = { pageSize: 100, pageNumber: 1, search: 'a', sort: 'name' };
    const first = await users.listUsers(orgId, query);
    expect(first.total).toEqual({ count: SEARCH_WINDOW, relation: 'gte' });
    for (const pageNumber of [1, 2, 5, 9, 10]) await expectExact({ ...query, pageNumber });
    await expect(users.listUsers(orgId, { ...query, pageNumber: 11 })).rejects.toBeInstanceOf(PageBeyondWindow);
    // A page size that does not divide the window: the page that starts inside it is answered whole.
    await expectExact({ ...query, pageSize: 30, pageNumber: 34 });
    await expect(users.listUsers(orgId, { ...query, pageSize: 30, pageNumber: 35 })).rejects.toBeInstanceOf(
      PageBeyondWindow,
    );
  });

  it('counts every match of a search when asked for the exact total, and still pages through the window only', async () => {
    const query: UserListQuery = { pageSize: 25, pageNumber: 1, search: 'a', exactTotal: true };
    const { total } = await users.listUsers(orgId, query);
    expect(total.relation).toBe('eq');
    expect(total.count).toBeGreaterThan(SEARCH_WINDOW);
    expect(total).toEqual(await naiveTotal(server.database.db, orgId, query));
    await expect(users.listUsers(orgId, { ...query, pageNumber: 41 })).rejects.toBeInstanceOf(PageBeyondWindow);
  });

  it('answers a search with fewer matches than the window exactly, every page, past the end empty', async () => {
    for (const query of [
      { pageSize: 25, pageNumber: 1, search: 'smith' },
      { pageSize: 50, pageNumber: 1, search: '.1', sort: '-name', status: 'pending' },
      { pageSize: 25, pageNumber: 1, search: 'ü', sort: 'name', isSystemAdmin: false },
      { pageSize: 25, pageNumber: 1, search: 'nobody-at-all' },
    ] satisfies UserListQuery[]) {
      const { count, relation } = await naiveTotal(server.database.db, orgId, query);
      expect(relation).toBe('eq');
      for (const pageNumber of pagesOf(count, query.pageSize)) await expectExact({ ...query, pageNumber });
    }
  });

  it('says so over HTTP: "gte" and no last page while capped, a 400 naming page[number] past the window', async () => {
    const jar = await signedInAdminOf(server.database.db, server.baseUrl, { id: orgId, slug: 'large', name: 'Large' });
    const get = (query: string) =>
      fetch(`${server.baseUrl}${usersPath(orgId)}?${query}`, { headers: { cookie: jar.header() } });
    const capped = userListDocumentSchema.parse(await (await get('filter[query]=a&page[number]=2')).json());
    expect(capped.meta).toEqual({ total_count: SEARCH_WINDOW, total_count_relation: 'gte' });
    expect(capped.links.last).toBeUndefined();
    expect(capped.links.next).toContain('page%5Bnumber%5D=3');
    const lastInWindow = userListDocumentSchema.parse(await (await get('filter[query]=a&page[number]=40')).json());
    expect(lastInWindow.data).toHaveLength(25);
    expect(lastInWindow.links.next).toBeUndefined();
    const beyond = await get('filter[query]=a&page[number]=41');
    expect(beyond.status).toBe(400);
    expect(errorDocumentSchema.parse(await beyond.json()).errors[0]).toMatchObject({
      code: 'page_beyond_search_window',
      source: { parameter: 'page[number]' },
    });
    const exact = userListDocumentSchema.parse(await (await get('filter[query]=a&page[total]=exact')).json());
    expect(exact.meta.total_count_relation).toBe('eq');
    expect(exact.meta.total_count).toBeGreaterThan(SEARCH_WINDOW);
    expect(exact.links.last).toBeUndefined();
    const unsearched = userListDocumentSchema.parse(await (await get('page[number]=2')).json());
    expect(unsearched.meta).toEqual({ total_count: USERS + 1, total_count_relation: 'eq' });
    expect(unsearched.links.last).toContain(`page%5Bnumber%5D=${Math.ceil((USERS + 1) / 25)}`);
  });

  it('answers random shapes exactly as the plain queries do', async () => {
    const { rows } = await server.database.db
      .selectFrom('users')
      .select(['name', 'email'])
      .where('org_id', '=', orgId)
      .limit(200)
      .execute()
      .then((found) => ({ rows: found }));
    const texts = rows.flatMap((row) => [row.name, row.email]);
    const search = fc
      .tuple(fc.constantFrom(...texts), fc.nat(), fc.integer({ min: 1, max: 8 }))
      .map(([text, start, length]) => [...text].slice(start % text.length, (start % text.length) + length).join(''));
    const query = fc.record(
      {
        pageSize: fc.constantFrom(10, 25, 100),
        pageNumber: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1300 })),
        search,
        status: fc.constantFrom(...USER_STATUSES),
        isSystemAdmin: fc.boolean(),
        isExternal: fc.boolean(),
        lastSignIn: fc.constantFrom(...LAST_SIGN_IN_FILTERS),
        sort: fc.constantFrom('name', '-name'),
      },
      { requiredKeys: ['pageSize', 'pageNumber'] },
    );
    await fc.assert(
      fc.asyncProperty(query, (q: UserListQuery) => expectExact(q)),
      { numRuns: 150 },
    );
  });
});
