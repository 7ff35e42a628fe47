import { PAGE_SIZE_OPTIONS, type UserListQuery } from '@users-admin/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countHeavySearchesInBuckets } from '../src/db/bucket-searches.ts';
import { insertUsers, seedOrganization } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { expectPageExact, expectPagesExact, naivePage } from './support/naive-page.ts';
import { bucketMismatches } from './support/page-buckets.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

describe('deep pages of a large organisation', () => {
  let server: TestServer;
  let orgId: string;
  const USERS = 12_345;
  const OTHER = uuidv7();

  beforeAll(async () => {
    server = await startTestServer();
    orgId = await seedOrganization(server.database.db, { name: 'Large', slug: 'large', users: USERS, seed: 9 });
    // Planner statistics of the organisation, as the seed command gathers them (PGlite runs no autovacuum).
    await sql`analyze`.execute(server.database.db);
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

  it('answers every page exactly as a plain OFFSET query would, from either end and from page buckets', async () => {
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
        ).toEqual(await naivePage(server.database.db, orgId, query));
      }
    }
    expect(PAGE_SIZE_OPTIONS).toContain(25);
    // The load built the buckets: 1,000 users each in each order.
    const buckets = await server.database.db
      .selectFrom('user_page_buckets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(buckets.n).toBe(2 * Math.ceil(USERS / 1000));
    expect(await bucketMismatches(server.database.db)).toEqual([]);
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
    // Every page, and one past the last.
    const everyPage = (lastPage: number) => Array.from({ length: lastPage + 1 }, (_, n) => n + 1);
    await expectPagesExact(server.database.db, orgId, users, searchShapes, everyPage, 3);
    // Every shape went past its first page through a kept list, one per search, filters and order.
    expect((await searchLists()).length).toBe(searchShapes.length);
  });

  it("counts and pages a search with a filter few users have by walking that filter's index, exactly", async () => {
    const { db } = server.database;
    // Larger than a walk of the whole organisation would be chosen for (walkUpTo), and each filter's
    // users few enough to walk (FILTER_WALK_UP_TO): no list built, no bucket counted.
    // A search counted through its indexes would be kept from its first match on (keepSearchesFrom).
    const users = createUsersRepository(db, { walkUpTo: 50, keepSearchesFrom: 1 });
    await db.deleteFrom('user_search_lists').execute();
    await db.deleteFrom('user_page_bucket_searches').execute();
    await db.deleteFrom('user_search_counts').execute();
    await db.deleteFrom('user_kept_searches').where('org_id', '=', orgId).execute();
    const filtered: Omit<UserListQuery, 'pageNumber'>[] = [
      { pageSize: 5, search: 'son', status: 'pending', sort: 'name' },
      { pageSize: 2, search: 'mit', status: 'disabled', isSystemAdmin: false, sort: '-name' },
      { pageSize: 10, search: 'an', isSystemAdmin: true },
      { pageSize: 25, search: 'a', status: 'inactive', sort: 'name' },
      // Longer than the kept grams: counted, by walking the filter's index.
      { pageSize: 25, search: 'user', status: 'pending' },
      { pageSize: 1, search: 'ller', isSystemAdmin: true, sort: 'name' },
    ];
    const everyPage = (lastPage: number) => Array.from({ length: lastPage + 1 }, (_, n) => n + 1);
    await expectPagesExact(server.database.db, orgId, users, filtered, everyPage, 2);
    expect(await searchLists()).toEqual([]);
    const counted = await db.selectFrom('user_page_bucket_searches').select('search').execute();
    expect(counted).toEqual([]);
    const kept = await db.selectFrom('user_kept_searches').select('search').where('org_id', '=', orgId).execute();
    expect(kept.map((row) => row.search)).not.toContain('user');
    expect(kept.map((row) => row.search)).not.toContain('ller');
  }, 60_000);

  it('builds a sparse search’s list for its filters and order from the rows its count reads, first page included', async () => {
    const { db } = server.database;
    const users = createUsersRepository(db, { walkUpTo: 0 });
    const clear = async () => {
      await db.deleteFrom('user_search_lists').execute();
      await db.deleteFrom('user_search_counts').execute();
      await db.deleteFrom('user_kept_searches').where('org_id', '=', orgId).execute();
    };
    await clear();
    // A first page builds no list by itself: this one comes from the count.
    const first: UserListQuery = { pageSize: 5, pageNumber: 1, search: 'ller', status: 'active', sort: '-name' };
    const { total } = await users.listUsers(orgId, first);
    expect(await searchLists()).toEqual([JSON.stringify(['name', 'active', null, 'ller'])]);
    expect(total).toBeGreaterThan(10);
    for (const pageNumber of [1, 2, Math.ceil(total / 5)]) {
      await expectPageExact(server.database.db, orgId, users, { ...first, pageNumber }, total);
    }
    // In join order, with a user type: the deep page counted first reads the list built beside.
    await clear();
    const deep: UserListQuery = { pageSize: 5, pageNumber: 3, search: 'mith', isSystemAdmin: false };
    const counted = await users.listUsers(orgId, deep);
    expect(counted.total).toBeGreaterThan(15);
    expect(await searchLists()).toEqual([JSON.stringify(['id', null, false, 'mith'])]);
    await expectPageExact(server.database.db, orgId, users, deep, counted.total);
    // A search some users hold through their domain is counted partly from the domains' kept
    // counts: its rows are not all read, and no list is built from them.
    await clear();
    await users.listUsers(orgId, { pageSize: 25, pageNumber: 1, search: 'arge.e' });
    expect(await searchLists()).toEqual([]);
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
    expect(after.users.map((u) => u.id)).toEqual(await naivePage(server.database.db, orgId, query));
    expect(after.users[1]?.id).toBe(before.users[0]?.id);
    // Lists of the older data version are dropped when one is built.
    expect(await searchLists()).toEqual([JSON.stringify(['name', null, null, 'son'])]);
  });

  it('keeps every deep page exact through writes: page buckets are kept with each change, not rebuilt after it', async () => {
    const { db } = server.database;
    const users = createUsersRepository(db);
    const query: UserListQuery = { pageSize: 25, pageNumber: 400, sort: 'name' };
    const before = await users.listUsers(orgId, query);
    // A user whose name sorts first shifts every later page by one.
    await sql`update users set sort_name = '' where org_id = ${orgId} and id = (select id from users where org_id = ${orgId} order by sort_name desc limit 1)`.execute(
      db,
    );
    const after = await users.listUsers(orgId, query);
    expect(after.users.map((u) => u.id)).toEqual(await naivePage(server.database.db, orgId, query));
    expect(after.users[1]?.id).toBe(before.users[0]?.id);
    // Users added, removed, renamed, of another status or user type, moved to another organisation.
    await insertUsers(
      db,
      Array.from({ length: 300 }, (_, n) =>
        userRow(orgId, `Added ${n}`, `added.${n}@large.example`, { status: n % 2 ? 'pending' : 'active' }),
      ),
    );
    await sql`delete from users where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by id limit 200 offset 3000)`.execute(
      db,
    );
    await sql`update users set sort_name = 'zz' || sort_name, status = 'disabled' where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by id limit 150 offset 7000)`.execute(
      db,
    );
    await sql`update users set is_system_admin = not is_system_admin where org_id = ${orgId} and status = 'inactive'`.execute(
      db,
    );
    await db.insertInto('organizations').values({ id: OTHER, name: 'Other', slug: 'large-other' }).execute();
    await sql`update users set org_id = ${OTHER} where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by sort_name limit 40 offset 500)`.execute(
      db,
    );
    expect(await bucketMismatches(server.database.db)).toEqual([]);
    for (const shape of shapes) {
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      const lastPage = Math.ceil(total / shape.pageSize);
      for (const pageNumber of [Math.floor(lastPage / 3), Math.floor(lastPage / 2), lastPage - 60].filter(
        (n) => n >= 1,
      )) {
        const deep = { ...shape, pageNumber };
        expect(
          (await users.listUsers(orgId, deep)).users.map((u) => u.id),
          JSON.stringify(deep),
        ).toEqual(await naivePage(server.database.db, orgId, deep));
      }
    }
  });

  it('cuts a bucket that grew past 2,000 users into buckets of 1,000, and pages through them exactly', async () => {
    const { db } = server.database;
    const users = createUsersRepository(db);
    // 2,500 users whose names sort together, in one bucket of the name order, in one statement.
    await insertUsers(
      db,
      Array.from({ length: 2500 }, (_, n) =>
        userRow(orgId, `Mmm ${String(n).padStart(4, '0')}`, `mmm.${n}@large.example`),
      ),
    );
    const sizes = await sql<{ users: number }>`
      select n[1] + n[2] + n[3] + n[4] + n[5] + n[6] + n[7] + n[8] as users from user_page_buckets
      where org_id = ${orgId}`.execute(db);
    expect(Math.max(...sizes.rows.map((row) => row.users))).toBeLessThanOrEqual(2000);
    expect(await bucketMismatches(server.database.db)).toEqual([]);
    const query: UserListQuery = { pageSize: 25, pageNumber: 0, sort: 'name' };
    const { total } = await users.listUsers(orgId, { ...query, pageNumber: 1 });
    for (const pageNumber of [220, 260, 300, Math.ceil(total / 25) - 210]) {
      const deep = { ...query, pageNumber };
      expect(
        (await users.listUsers(orgId, deep)).users.map((u) => u.id),
        JSON.stringify(deep),
      ).toEqual(await naivePage(server.database.db, orgId, deep));
    }
  });
  const bucketSearches = async (search: string) =>
    (
      await server.database.db
        .selectFrom('user_page_bucket_searches')
        .select(['by_name', sql<number>`count(*)::int`.as('n')])
        .where('org_id', '=', orgId)
        .where('search', '=', search)
        .groupBy('by_name')
        .orderBy('by_name')
        .execute()
    ).map((row) => `${row.by_name ? 'name' : 'id'}: ${row.n}`);

  // Searches of letters that "large.example" lacks: users hold them in their names and mailboxes.
  const searchShapes: Omit<UserListQuery, 'pageNumber'>[] = [
    { pageSize: 25, search: 's' },
    { pageSize: 25, search: 'U', sort: 'name' },
    { pageSize: 50, search: 'er', sort: '-name' },
    { pageSize: 25, search: 'c' },
    { pageSize: 25, search: 'i', status: 'active', sort: 'name' },
    { pageSize: 10, search: 'n', isSystemAdmin: false, sort: '-name' },
    { pageSize: 10, search: 'o', status: 'pending', isSystemAdmin: false },
    // Every user holds it: the filters' own pages.
    { pageSize: 25, search: '@large.ex', sort: 'name' },
  ];

  /** Pages from both ends, the middle and the far side of a bucket, each as a plain OFFSET query answers. */
  const expectSearchPagesExact = (users: ReturnType<typeof createUsersRepository>, minPages = 40) =>
    expectPagesExact(
      server.database.db,
      orgId,
      users,
      searchShapes,
      (lastPage) => [2, 41, Math.floor(lastPage / 3), Math.floor(lastPage / 2), lastPage - 41, lastPage - 1, lastPage],
      minPages,
    );

  it("answers every deep page of a dense search exactly from the search's counts per page bucket", async () => {
    // Counted two buckets at a time, as far as each page needs from the nearer end.
    const users = createUsersRepository(server.database.db, { bucketSearchesFrom: 0, bucketsCountedAtOnce: 2 });
    await expectSearchPagesExact(users);
    // A page near either end counts only the buckets between it and that end.
    await users.listUsers(orgId, { pageSize: 25, pageNumber: 2, search: 'h', sort: 'name' });
    expect(await bucketSearches('h')).toEqual(['name: 2']);
    const { total } = await users.listUsers(orgId, { pageSize: 25, pageNumber: 1, search: 'h', sort: 'name' });
    await users.listUsers(orgId, { pageSize: 25, pageNumber: Math.ceil(total / 25) - 1, search: 'h', sort: 'name' });
    // From the end: past the buckets of names in other scripts (no 'h'), short of the middle ones.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from user_page_buckets where org_id = ${orgId} and by_name`.execute(server.database.db);
    const [counted] = await bucketSearches('h');
    expect(Number(counted?.split(': ')[1])).toBeGreaterThan(2);
    expect(Number(counted?.split(': ')[1])).toBeLessThan(rows[0]?.n ?? 0);
    // '@large.ex' read the filters' buckets.
    expect(await bucketSearches('@large.ex')).toEqual([]);
  });

  it("reads a deep page from the list a first page built, without counting the search's buckets", async () => {
    // A first page whose walk meets its cap (here at once) builds the search's list.
    const capped = createUsersRepository(server.database.db, { walkUpTo: 0, walkCap: { factor: 0, least: 1 } });
    const shape = { pageSize: 25, search: 'mi', sort: 'name' } as const;
    const { total } = await capped.listUsers(orgId, { ...shape, pageNumber: 1 });
    expect(await searchLists()).toContain(JSON.stringify(['name', null, null, 'mi']));
    // Every deep page of it would be read from its bucket counts, but for that list.
    const users = createUsersRepository(server.database.db, { walkUpTo: 0, bucketSearchesFrom: 0 });
    const lastPage = Math.ceil(total / shape.pageSize);
    for (const pageNumber of [2, Math.floor(lastPage / 2), lastPage]) {
      await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber }, total);
      await expectPageExact(server.database.db, orgId, users, { ...shape, sort: '-name', pageNumber }, total);
    }
    expect(await bucketSearches('mi')).toEqual([]);
    // Without the list, a page near the start walks from its counted buckets.
    await server.database.db.deleteFrom('user_search_lists').execute();
    await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber: 2 }, total);
    expect(await bucketSearches('mi')).not.toEqual([]);
  });

  it('finds a deep page, in join order, of a search the trigram index cannot narrow from its bucket counts taken from the nearer end, not from a list of all of it', async () => {
    const { db } = server.database;
    await db.deleteFrom('user_search_lists').execute();
    await db.deleteFrom('user_page_bucket_searches').execute();
    // "an" has no three characters in a row for the trigram index: a list of it is built by walking
    // every user, where its counts per bucket stop at the page.
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 100, bucketsCountedAtOnce: 1 });
    const shape = { pageSize: 25, search: 'an' } as const;
    const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
    const lastPage = Math.ceil(total / shape.pageSize);
    expect(lastPage).toBeGreaterThan(40);
    // The page just before the middle, counted from the start: at most the first half of the buckets.
    await expectPageExact(
      server.database.db,
      orgId,
      users,
      { ...shape, pageNumber: Math.floor(lastPage / 2) - 1 },
      total,
    );
    const [counted] = await bucketSearches('an');
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from user_page_buckets where org_id = ${orgId} and not by_name`.execute(db);
    const buckets = rows[0]?.n ?? 0;
    expect(Number(counted?.split(': ')[1])).toBeGreaterThan(1);
    expect(Number(counted?.split(': ')[1])).toBeLessThanOrEqual(Math.ceil(buckets / 2) + 1);
    const everyFifth = (last: number) => Array.from({ length: Math.ceil(last / 5) + 1 }, (_, n) => 5 * n + 2);
    await expectPagesExact(
      server.database.db,
      orgId,
      users,
      [shape, { pageSize: 10, search: 'An', status: 'active' }],
      everyFifth,
      20,
    );
    expect(await searchLists()).toEqual([]);
  });

  it('finds a deep page by name of a search the trigram index cannot narrow from its bucket counts within its span, not from a list of all its span', async () => {
    const { db } = server.database;
    await db.deleteFrom('user_search_lists').execute();
    await db.deleteFrom('user_page_bucket_searches').execute();
    // Two letters whose span is less than half the order by name and holds eight users or more for
    // each who holds them (chosen from the seeded names): too many to walk to a middle page, and a
    // list of them would be built by walking all of the span.
    const { rows } = await sql<{ gram: string }>`
      select s.gram from user_search_spans s
      join (select gram, sum(n) as n from user_search_grams where org_id = ${orgId} group by gram) g using (gram)
      cross join lateral (
        select count(*) as reach from users u
        where u.org_id = ${orgId} and u.sort_name between s.first_sort and s.last_sort
      ) r
      where s.org_id = ${orgId} and s.gram ~ '^[a-z]{2}$' and g.n >= 200 and r.reach >= 8 * g.n
        and r.reach < (select count(*) from users where org_id = ${orgId}) / 2
      order by r.reach / g.n desc, s.gram limit 1`.execute(db);
    const search = rows[0]?.gram ?? '';
    expect(search).not.toBe('');
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 100, bucketsCountedAtOnce: 1 });
    const shape = { pageSize: 10, search, sort: 'name' } as const;
    const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
    const lastPage = Math.ceil(total / shape.pageSize);
    expect(lastPage).toBeGreaterThan(19);
    await expectPageExact(
      server.database.db,
      orgId,
      users,
      { ...shape, pageNumber: Math.floor(lastPage / 2) - 1 },
      total,
    );
    expect(await searchLists()).toEqual([]);
    expect(await bucketSearches(search)).not.toEqual([]);
    const everyFifth = (last: number) => Array.from({ length: Math.ceil(last / 5) + 1 }, (_, n) => 5 * n + 2);
    await expectPagesExact(
      server.database.db,
      orgId,
      users,
      [shape, { ...shape, sort: '-name', status: 'active' }],
      everyFifth,
      5,
    );
    expect(await searchLists()).toEqual([]);
  });

  it("reads a dense search's deep pages from the counts per bucket its load took, kept beyond the limit of searches", async () => {
    const { db } = server.database;
    // Half of the generated users have a mailbox "user.N" (names in scripts other than Latin).
    const dense = await seedOrganization(db, {
      name: 'Dense',
      slug: 'dense',
      users: 3_000,
      seed: 5,
      heavySearchesFrom: 1_000,
    });
    expect(await countHeavySearchesInBuckets(db, dense, { from: 1_200 })).toEqual(
      expect.arrayContaining(['user', 'user.']),
    );
    const atLoad = async () =>
      (
        await db
          .selectFrom('user_page_bucket_searches')
          .select(['search', 'by_name', sql<number>`count(*)::int`.as('n'), sql<string>`max(counted_at)`.as('at')])
          .where('org_id', '=', dense)
          .where('found_at_load', '=', true)
          .groupBy(['search', 'by_name'])
          .orderBy('search')
          .orderBy('by_name')
          .execute()
      ).map((row) => ({ ...row, at: String(row.at) }));
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from user_page_buckets where org_id = ${dense} and not by_name`.execute(db);
    const buckets = rows[0]?.n ?? 0;
    expect(buckets).toBeGreaterThan(2);
    const counted = await atLoad();
    // Every bucket of both orders, for the densest heavy searches ("user." and its parts).
    expect(counted.map(({ search, by_name, n }) => `${search} ${by_name ? 'name' : 'id'}: ${n}`)).toEqual(
      expect.arrayContaining([`user. id: ${buckets}`, `user. name: ${buckets}`]),
    );
    // Its deep pages read them: none is counted again, and every page is exact.
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 100, bucketsCountedAtOnce: 1 });
    const everyFifth = (last: number) => Array.from({ length: Math.ceil(last / 5) + 1 }, (_, n) => 5 * n + 3);
    await expectPagesExact(
      server.database.db,
      dense,
      users,
      [
        { pageSize: 10, search: 'user.' },
        { pageSize: 10, search: 'User.', sort: '-name', status: 'active' },
      ],
      everyFifth,
      40,
    );
    expect(await atLoad()).toEqual(counted);
    // More searches counted per bucket than an organisation keeps drop the oldest, not the load's.
    for (const search of ['r', 'i', 'o', 'u', 'h', 'er', 'ri', 'ia', 'ar']) {
      for (const shape of [
        { pageSize: 10, search },
        { pageSize: 10, search, sort: 'name' as const },
      ]) {
        const { total } = await users.listUsers(dense, { ...shape, pageNumber: 1 });
        await users.listUsers(dense, { ...shape, pageNumber: Math.ceil(total / 20) });
      }
    }
    const { rows: others } = await sql<{ n: number }>`
      select count(distinct (search, by_name))::int as n from user_page_bucket_searches
      where org_id = ${dense} and not found_at_load`.execute(db);
    expect(others[0]?.n).toBe(16);
    expect(await atLoad()).toEqual(counted);
  });

  it("passes the page buckets by name that lie outside a search's span without counting them", async () => {
    const { db } = server.database;
    await db.deleteFrom('user_search_lists').execute();
    await db.deleteFrom('user_page_bucket_searches').execute();
    // "ν" is held by Greek names, which sort after the Latin ones: a page near the start of its
    // matches is found from the start, past buckets of Latin names that hold none.
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 0, bucketsCountedAtOnce: 1 });
    const shape = { pageSize: 5, search: 'ν', sort: 'name' } as const;
    const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
    expect(total).toBeGreaterThan(20);
    await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber: 2 }, total);
    const { rows } = await sql<{ counted: number; before: number }>`
      with b as (
        select sort_name, id, lead(sort_name) over (order by sort_name, id) as next_sort
        from user_page_buckets where org_id = ${orgId} and by_name
      ),
      before as (
        select b.* from b, user_search_spans s
        where s.org_id = ${orgId} and s.gram = 'ν' and b.next_sort < s.first_sort
      )
      select
        (select count(*)::int from user_page_bucket_searches c where c.org_id = ${orgId} and c.search = 'ν') as counted,
        (select count(*)::int from before) as before`.execute(db);
    // Buckets lie before its span, and none of them was counted; the page's own bucket was.
    expect(rows[0]?.before).toBeGreaterThan(2);
    expect(rows[0]?.counted).toBeGreaterThan(0);
    expect(rows[0]?.counted).toBeLessThan(3);
    for (const pageNumber of [3, Math.ceil(total / 5) - 1]) {
      await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber }, total);
      await expectPageExact(server.database.db, orgId, users, { ...shape, sort: '-name', pageNumber }, total);
    }
  });

  it('walks a search bunched in the order by name from where its matches start, not from the first name', async () => {
    // "山" is held by Japanese and Chinese names only, which sort after every other script's: 108
    // of the 12,345 users, the first of them past 11,000 others. The walk is capped at the entries
    // its estimate gives, from the users of the span.
    const users = createUsersRepository(server.database.db, { walkUpTo: 0, walkCap: { factor: 4, least: 1 } });
    const shapes = [
      { pageSize: 25, search: '山', sort: 'name' },
      { pageSize: 10, search: '山', sort: '-name' },
    ] as const;
    await server.database.db.deleteFrom('user_search_lists').execute();
    for (const shape of shapes) {
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      expect(total).toBeGreaterThan(shape.pageSize * 3);
      await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber: 1 }, total);
    }
    // Each first page was found by its walk within its cap: none had to build the search's list.
    expect(await searchLists()).toEqual([]);
    for (const shape of shapes) {
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      for (const pageNumber of [2, 3, 4])
        await expectPageExact(server.database.db, orgId, users, { ...shape, pageNumber }, total);
    }
    // Without its span (none kept), the pages are walked from the first name, as exact.
    await server.database.db.deleteFrom('user_search_lists').execute();
    await sql`delete from user_search_spans where org_id = ${orgId} and gram = '山'`.execute(server.database.db);
    const { total } = await users.listUsers(orgId, { ...shapes[0], pageNumber: 1 });
    for (const pageNumber of [1, 3])
      await expectPageExact(server.database.db, orgId, users, { ...shapes[0], pageNumber }, total);
  });

  it("keeps a dense search's deep pages exact through writes: only the buckets they touched are counted again", async () => {
    const { db } = server.database;
    const users = createUsersRepository(db, { bucketSearchesFrom: 0 });
    const query: UserListQuery = { pageSize: 25, pageNumber: 30, search: 'zq', sort: 'name' };
    // No one holds 'zq' yet: 4,900 users who do, their names beside every third name of every bucket.
    const spread = await sql<{ id: string; name: string }>`
      select id, name from users where org_id = ${orgId} order by sort_name, id`.execute(db);
    await insertUsers(
      db,
      spread.rows
        .filter((_, n) => n % 3 === 1)
        .map((user, n) => userRow(orgId, `${user.name} Zq`, `zq.${n}@large.example`)),
    );
    const before = await users.listUsers(orgId, query);
    expect(before.users).toHaveLength(25);
    expect(before.users.map((u) => u.id)).toEqual(await naivePage(server.database.db, orgId, query));
    const counted = async () =>
      (
        await db
          .selectFrom('user_page_bucket_searches')
          .select(['id', 'sort_name', 'version', 'counted_at'])
          .where('org_id', '=', orgId)
          .where('search', '=', 'zq')
          .where('by_name', '=', true)
          .execute()
      ).map((row) => JSON.stringify(row));
    const countedBefore = await counted();
    // The first user by name comes to hold it, by a change of e-mail alone: every later page shifts by one.
    const first = spread.rows[0]?.id ?? '';
    await sql`update users set email = 'zq.' || email, search_text = search_text || 'zq'
      where org_id = ${orgId} and id = ${first}`.execute(db);
    const after = await users.listUsers(orgId, query);
    expect(after.users.map((u) => u.id)).toEqual(await naivePage(server.database.db, orgId, query));
    expect(after.users[1]?.id).toBe(before.users[0]?.id);
    // Only the first bucket was counted again.
    const countedAfter = await counted();
    expect(countedAfter.filter((row) => !countedBefore.includes(row))).toHaveLength(1);
    // Users added (2,500 that hold it, cutting a bucket), removed, renamed, of another status or user
    // type, moved to another organisation.
    await insertUsers(
      db,
      Array.from({ length: 2500 }, (_, n) =>
        userRow(orgId, `Zqa ${String(n).padStart(4, '0')}`, `zqa.${n}@large.example`, {
          status: n % 2 ? 'pending' : 'active',
        }),
      ),
    );
    await sql`delete from users where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by id limit 200 offset 2000)`.execute(
      db,
    );
    await sql`update users set sort_name = 'zz' || sort_name, status = 'disabled' where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by id limit 150 offset 6000)`.execute(
      db,
    );
    await sql`update users set email = replace(email, 'zq.', ''), search_text = replace(search_text, 'zq', '')
      where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} and strpos(search_text, 'zq') > 0 order by id limit 300 offset 100)`.execute(
      db,
    );
    await sql`update users set is_system_admin = not is_system_admin where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} and status = 'pending' order by sort_name limit 300)`.execute(
      db,
    );
    await sql`update users set org_id = ${OTHER} where org_id = ${orgId} and id in (select id from users where org_id = ${orgId} order by sort_name limit 40 offset 900)`.execute(
      db,
    );
    expect(await bucketMismatches(db)).toEqual([]);
    const { total } = await users.listUsers(orgId, { ...query, pageNumber: 1 });
    const { sort: _, ...unsorted } = query;
    const queries: UserListQuery[] = [query, unsorted, { ...query, sort: '-name', status: 'pending' }];
    for (const shape of queries) {
      for (const pageNumber of [2, 60, Math.floor(total / 50), Math.ceil(total / 25) - 30]) {
        const deep = { ...shape, pageNumber };
        expect(
          (await users.listUsers(orgId, deep)).users.map((u) => u.id),
          JSON.stringify(deep),
        ).toEqual(await naivePage(server.database.db, orgId, deep));
      }
    }
    await expectSearchPagesExact(users, 0);
  });

  it('keeps the bucket counts of at most 16 searches and orders per organisation, the least recently counted dropped', async () => {
    const users = createUsersRepository(server.database.db, { bucketSearchesFrom: 0 });
    const counted: string[] = [];
    for (const search of ['b', 'd', 'f', 'an', 'j', 'k', 't', 'v', 'z']) {
      for (const sort of ['name', undefined] as const) {
        await users.listUsers(orgId, { pageSize: 25, pageNumber: 3, search, ...(sort ? { sort } : {}) });
        counted.push(`${search} ${sort ? 'name' : 'id'}`);
      }
    }
    const kept = await server.database.db
      .selectFrom('user_page_bucket_searches')
      .select(['search', 'by_name'])
      .distinct()
      .where('org_id', '=', orgId)
      .execute();
    expect(kept.map((row) => `${row.search} ${row.by_name ? 'name' : 'id'}`).sort()).toEqual(counted.slice(2).sort());
  });
  it('answers any page of any search exactly from its bucket counts, whatever writes come between (property)', async () => {
    const { db } = server.database;
    // Mostly searches many users hold (the bucket counts' path), a few sparse ones and one all hold.
    const searches = ['n', 'an', 'er', 'o', 'ma', 'u', 's', 'i', 'son', 'zq', 'user', 'e'];
    const statuses = [undefined, 'active', 'pending', 'inactive', 'disabled'] as const;
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        name: fc.constantFrom('Anna Zq', 'Mario Rossi', 'Zoe Ng', 'Ellen Son'),
      }),
      fc.record({ kind: fc.constant('email' as const), at: fc.nat(12_000) }),
      fc.record({ kind: fc.constant('status' as const), at: fc.nat(12_000) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(12_000) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          search: fc.constantFrom(...searches),
          status: fc.constantFrom(...statuses),
          isSystemAdmin: fc.constantFrom(undefined, true, false),
          sort: fc.constantFrom(undefined, 'name' as const, '-name' as const),
          pageSize: fc.constantFrom(5, 25, 100),
          page: fc.double({ min: 0, max: 1, noNaN: true }),
          atOnce: fc.integer({ min: 1, max: 6 }),
          ahead: fc.boolean(),
          writes: fc.array(write, { maxLength: 3 }),
        }),
        async ({ search, status, isSystemAdmin, sort, pageSize, page, atOnce, ahead, writes }) => {
          for (const change of writes) {
            const at = 'at' in change ? change.at : 0;
            const one = sql`(select id from users where org_id = ${orgId} order by sort_name, id limit 1 offset ${at})`;
            if (change.kind === 'insert') {
              await insertUsers(db, [
                userRow(orgId, change.name, `${change.name.replace(' ', '.').toLowerCase()}.${at}@large.example`),
              ]);
            } else if (change.kind === 'email') {
              await sql`update users set email = 'user.' || email, search_text = search_text || 'user' where org_id = ${orgId} and id = ${one}`.execute(
                db,
              );
            } else if (change.kind === 'status') {
              await sql`update users set status = case status when 'active' then 'disabled' else 'active' end where org_id = ${orgId} and id = ${one}`.execute(
                db,
              );
            } else {
              await sql`delete from users where org_id = ${orgId} and id = ${one}`.execute(db);
            }
          }
          const users = createUsersRepository(db, {
            bucketSearchesFrom: 0,
            bucketsCountedAtOnce: atOnce,
            countBucketsAhead: ahead,
          });
          const shape: UserListQuery = {
            pageSize,
            pageNumber: 1,
            search,
            ...(status ? { status } : {}),
            ...(isSystemAdmin !== undefined ? { isSystemAdmin } : {}),
            ...(sort ? { sort } : {}),
          };
          const { total } = await users.listUsers(orgId, shape);
          const query = { ...shape, pageNumber: 1 + Math.floor(page * Math.max(0, Math.ceil(total / pageSize) - 1)) };
          await expectPageExact(server.database.db, orgId, users, query, total);
        },
      ),
      { numRuns: 80 },
    );
    expect(await bucketMismatches(db)).toEqual([]);
  }, 120_000);
});
