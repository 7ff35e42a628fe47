import type { UserListQuery } from '@users-admin/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { partGramsOf } from '../src/db/part-grams.ts';
import { recountOrganization } from '../src/db/recount.ts';
import { insertUsers, seedLargeOrganization } from '../src/db/seed.ts';
import { createRandom } from '../src/db/seed-data.ts';
import { searchText, sortName } from '../src/lib/user-text.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { expectPageExact, expectPagesExact, naivePage } from './support/naive-page.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

/** Parts of 400 users: a few thousand users make eight of them in each order. */
const PART_USERS = 400;
const GROUP_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8]
  .map((g) => `count(*) filter (where user_group(u.status, u.is_system_admin) = ${g})`)
  .join(', ');

/**
 * The differences between the kept counts of each part's grams and heavy searches and those of
 * the users as they are now, computed directly (at most 20): none when the counts are exact.
 */
async function partGramMismatches(db: Db, orgId: string): Promise<unknown[]> {
  const { rows } = await sql`
    with parts as (
      select u.*, o.by_name, p.sort_name collate "C" as part_sort, p.id as part_id
      from users u
      cross join (values (false), (true)) o(by_name)
      cross join lateral user_part_of(u.org_id, o.by_name, case when o.by_name then u.sort_name else '' end, u.id) p
      where u.org_id = ${orgId}
    ),
    expected as (
      select u.by_name, g.gram collate "C" as gram, u.part_sort, u.part_id, array[${sql.raw(GROUP_COUNTS)}]::integer[] as n
      from parts u cross join lateral search_part_grams(u.search_text) g(gram)
      group by 1, 2, 3, 4
      union all
      select u.by_name, '~' || k.search, u.part_sort, u.part_id, array[${sql.raw(GROUP_COUNTS)}]::integer[]
      from parts u join (select distinct search from user_part_searches where org_id = ${orgId}) k
        on strpos(u.search_text, k.search) > 0
      group by 1, 2, 3, 4
    ),
    kept as (
      select by_name, gram, sort_name, id, n from user_part_grams
      where org_id = ${orgId} and n <> '{0,0,0,0,0,0,0,0}'
      union all
      select by_name, '~' || search, sort_name, id, n from user_part_searches
      where org_id = ${orgId} and n <> '{0,0,0,0,0,0,0,0}'
    )
    (select 'missing' as what, * from expected except select 'missing', * from kept)
    union all
    (select 'extra', * from kept except select 'extra', * from expected)
    limit 20`.execute(db);
  return rows;
}

/** The heavy searches whose counts the parts keep. */
async function partSearches(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_part_searches')
    .select('search')
    .distinct()
    .where('org_id', '=', orgId)
    .orderBy('search')
    .execute();
  return rows.map((row) => row.search);
}

/** How many users each part of one order holds, in order. */
async function partSizes(db: Db, orgId: string, byName: boolean): Promise<number[]> {
  const { rows } = await sql<{ users: number }>`
    select count(u.id)::int as users from user_part_bounds b
    left join lateral (
      select u.id from users u
      where u.org_id = b.org_id
        and (case when ${byName} then u.sort_name else '' end, u.id) >= (b.sort_name, b.id)
        and not exists (
          select 1 from user_part_bounds c
          where c.org_id = b.org_id and c.by_name = b.by_name and (c.sort_name, c.id) > (b.sort_name, b.id)
            and (case when ${byName} then u.sort_name else '' end, u.id) >= (c.sort_name, c.id))
    ) u on true
    where b.org_id = ${orgId} and b.by_name = ${byName}
    group by b.sort_name, b.id order by b.sort_name, b.id`.execute(db);
  return rows.map((row) => row.users);
}

describe('counts of one- to three-character grams per part of each order', () => {
  let server: TestServer;
  let db: Db;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    ({ orgId } = await seedLargeOrganization(db, {
      name: 'Parts',
      slug: 'parts',
      users: 3000,
      seed: 17,
      adminFirstName: 'Parts',
      adminPassword: 'parts',
      partUsers: PART_USERS,
      // Heavy searches in an organisation this small: those 300 users or more hold.
      heavySearchesFrom: 300,
    }));
  }, 120_000);
  afterAll(() => server.close());

  it('takes the same one- to three-character grams of any text as the database', async () => {
    const texts = fc.sample(
      fc.tuple(fc.string({ unit: 'binary', maxLength: 10 }), fc.string({ unit: 'grapheme', maxLength: 10 })),
      { numRuns: 200, seed: 20261126 },
    );
    texts.push(['Zoë 👩🏽‍💻 山田', 'x@y'], ['', ''], ['a', ''], ['𝒜𝒜', '\u001f'], ['a𝒜b', 'ab\uffff']);
    for (const [name, email] of texts) {
      if (name.includes('\u0000') || email.includes('\u0000')) continue;
      const text = searchText(name, email);
      const { rows } = await sql<{ gram: string }>`select search_part_grams(${text}) as gram`.execute(db);
      expect(new Set(rows.map((row) => row.gram)), JSON.stringify(text)).toEqual(partGramsOf(text));
    }
  });

  it('cuts a bulk-loaded organisation into parts in both orders and counts every gram of each exactly', async () => {
    for (const byName of [false, true]) {
      const sizes = await partSizes(db, orgId, byName);
      // 3,001 users (the load's and its System Admin): seven parts of 400 and the rest.
      expect(sizes, `by name: ${byName}`).toEqual([400, 400, 400, 400, 400, 400, 400, 201]);
    }
    expect((await partSearches(db, orgId)).length).toBeGreaterThan(3);
    expect(await partGramMismatches(db, orgId)).toEqual([]);
  });

  it('pages a longer search from the parts of a three-character gram that the same users hold', async () => {
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 0 });
    await db.deleteFrom('user_page_bucket_searches').execute();
    // Every mailbox ending in 9 is of parts.example: "9@p" is held by the users of "9@parts" only.
    const shapes: Omit<UserListQuery, 'pageNumber'>[] = [
      { pageSize: 10, search: '9@parts' },
      { pageSize: 5, search: '9@PARTS.', sort: '-name', status: 'active' },
    ];
    await expectPagesExact(db, orgId, users, shapes, (last) => [2, Math.ceil(last / 2), last - 1, last], 4);
    expect(await db.selectFrom('user_page_bucket_searches').select('search').distinct().execute()).toEqual([]);
  });

  it('pages a heavy search its load found from its own counts per part', async () => {
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 0 });
    await db.deleteFrom('user_page_bucket_searches').execute();
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    let paged = 0;
    for (const search of await partSearches(db, orgId)) {
      const shape = { pageSize: 10, search, sort: 'name' } as const;
      const { total } = await users.listUsers(orgId, { ...shape, pageNumber: 1 });
      // Not every user's (those are the filters' pages), and pages enough.
      if (total === Number(count) || total < 50) continue;
      const last = Math.ceil(total / shape.pageSize);
      for (const pageNumber of new Set([2, Math.ceil(last / 2), last])) {
        await expectPageExact(db, orgId, users, { ...shape, pageNumber }, total);
      }
      paged++;
    }
    expect(paged).toBeGreaterThan(0);
    expect(await db.selectFrom('user_page_bucket_searches').select('search').distinct().execute()).toEqual([]);
  });

  it('keeps the counts exact through inserts, renames into other parts, status and type changes and deletes', async () => {
    const random = createRandom(5);
    const names = ['Aaron Aal', 'Zoë Zyx', 'Ñandú Öz', 'Mia Lee', '山田 太郎', 'Oliver Brown', 'anna', 'Ann-Marie Ng'];
    const rows = Array.from({ length: 60 }, (_, n) =>
      userRow(orgId, `${names[n % names.length]} ${n}`, `part.${n}@p${n % 3}.example`, {
        status: (['active', 'pending', 'disabled', 'inactive'] as const)[n % 4] ?? 'active',
        is_system_admin: n % 5 === 0,
      }),
    );
    await insertUsers(db, rows.slice(0, 40));
    for (const row of rows.slice(40)) await insertUsers(db, [row]);
    const ids = (
      await db.selectFrom('users').select('id').where('org_id', '=', orgId).orderBy('id').limit(3000).execute()
    ).map((row) => row.id);
    const pick = (count: number) =>
      Array.from({ length: count }, () => ids[Math.floor(random() * ids.length)] as string);
    // Renamed: by name they move to other parts; their grams change.
    for (const [n, id] of pick(12).entries()) {
      const name = `${['Bea', 'Yusuf', 'Ωμέγα', 'Carl'][n % 4]} Renamed ${n}`;
      await db
        .updateTable('users')
        .set({ name, sort_name: sortName(name), search_text: searchText(name, `renamed.${n}@r.example`) })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
    }
    await db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('org_id', '=', orgId)
      .where('id', 'in', pick(25))
      .execute();
    await db
      .updateTable('users')
      .set({ is_system_admin: true })
      .where('org_id', '=', orgId)
      .where('id', 'in', pick(7))
      .execute();
    // A change that moves no count.
    await db
      .updateTable('users')
      .set({ initials: 'ZZ' })
      .where('org_id', '=', orgId)
      .where('id', 'in', pick(9))
      .execute();
    await db.deleteFrom('users').where('org_id', '=', orgId).where('id', 'in', pick(15)).execute();
    expect(await partGramMismatches(db, orgId)).toEqual([]);
  });

  it('pages searches of one to three characters deep from the parts, exactly, in both orders and with filters', async () => {
    // Every page past the first from counts per bucket or part (bucketSearchesFrom 0), none walked.
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 0 });
    await db.deleteFrom('user_page_bucket_searches').execute();
    const shapes: Omit<UserListQuery, 'pageNumber'>[] = [
      { pageSize: 25, search: 'ar', sort: 'name' },
      { pageSize: 10, search: 'I', sort: '-name', status: 'active' },
      { pageSize: 25, search: 'on', isSystemAdmin: false },
      { pageSize: 50, search: 'o' },
      { pageSize: 10, search: 'AN ', sort: '-name' },
      { pageSize: 5, search: 'a ', sort: 'name', status: 'active' },
    ];
    const pagesOf = (last: number) => [2, 3, Math.ceil(last / 3), Math.ceil(last / 2), last - 1, last, last + 1];
    await expectPagesExact(db, orgId, users, shapes, pagesOf, 4);
    // The parts answered: no search was counted per page bucket.
    expect(await db.selectFrom('user_page_bucket_searches').select('search').distinct().execute()).toEqual([]);
  });

  it('counts page buckets instead when the counts of the parts do not add up to the total', async () => {
    const users = createUsersRepository(db, { walkUpTo: 0, bucketSearchesFrom: 0 });
    await db.deleteFrom('user_page_bucket_searches').execute();
    const { rows } = await sql<{ id: string }>`
      select id from user_part_grams where org_id = ${orgId} and by_name and gram = 'ma' order by sort_name limit 1`.execute(
      db,
    );
    await sql`update user_part_grams set n = '{0,0,0,0,0,0,0,0}'
      where org_id = ${orgId} and by_name and gram = 'ma' and id = ${rows[0]?.id}`.execute(db);
    const query: UserListQuery = { pageSize: 10, pageNumber: 1, search: 'ma', sort: 'name' };
    const { total } = await users.listUsers(orgId, query);
    const deep = { ...query, pageNumber: Math.ceil(total / 10 / 2) };
    const page = await users.listUsers(orgId, deep);
    expect(page.users.map((user) => user.id)).toEqual(await naivePage(db, orgId, deep));
    expect(await db.selectFrom('user_page_bucket_searches').select('search').distinct().execute()).toEqual([
      { search: 'ma' },
    ]);
  });

  it('cuts the parts again at a recount, and gives none to an organisation of fewer than two parts of users', async () => {
    await recountOrganization(db, orgId, { partUsers: PART_USERS, heavySearchesFrom: 300 });
    expect((await partSearches(db, orgId)).length).toBeGreaterThan(3);
    expect(await partGramMismatches(db, orgId)).toEqual([]);
    const { users } = await db
      .selectFrom('user_counts')
      .select((eb) => eb.fn.sum<string>('n').as('users'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    for (const byName of [false, true]) {
      const sizes = await partSizes(db, orgId, byName);
      expect(sizes.slice(0, -1).every((size) => size === PART_USERS)).toBe(true);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(Number(users));
    }
    const small = await db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    await recountOrganization(db, small.id, { partUsers: PART_USERS });
    expect(await db.selectFrom('user_part_bounds').select('id').where('org_id', '=', small.id).execute()).toEqual([]);
  });
});
