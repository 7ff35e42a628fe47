import type { UserListQuery, UserStatus } from '@users-admin/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '../src/db/database.ts';
import { recountOrganization } from '../src/db/recount.ts';
import type { NewUserRow } from '../src/db/schema.ts';
import { insertUsers, seedOrganization } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { escapeLike, searchText, sortName } from '../src/lib/user-text.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { createScratchDatabase, startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

const statuses: UserStatus[] = ['active', 'pending', 'inactive', 'disabled'];

function user(orgId: string, n: number, mailbox = `user.${n}`): NewUserRow {
  return userRow(orgId, n % 3 ? `Person ${n}` : `山田 ${n}`, `${mailbox}@kept.example`, {
    status: statuses[n % 4] ?? 'active',
    is_system_admin: n % 5 === 0,
  });
}

/** Rows of `user_kept_searches` that differ from the users as they are now. */
async function keptMismatches(db: Db): Promise<unknown[]> {
  const result = await sql`
    with searches as (select distinct org_id, search from user_kept_searches),
    actual as (
      select s.org_id, s.search, u.status, u.is_system_admin, count(*) as n
      from searches s join users u on u.org_id = s.org_id and strpos(u.search_text, s.search) > 0
      group by 1, 2, 3, 4
    )
    select coalesce(k.org_id, a.org_id) as org_id, coalesce(k.search, a.search) as search,
           coalesce(k.status, a.status) as status, k.n as kept, a.n as actual
    from user_kept_searches k full join actual a using (org_id, search, status, is_system_admin)
    where coalesce(k.n, 0) <> coalesce(a.n, 0)
    limit 5`.execute(db);
  return result.rows;
}

/** The searches an organisation keeps counted, in order. */
async function keptSearchesOf(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_kept_searches')
    .select('search')
    .distinct()
    .where('org_id', '=', orgId)
    .orderBy('search')
    .execute();
  return rows.map((row) => row.search);
}

describe('searches that many names or mailboxes hold, kept counted', () => {
  let server: TestServer;
  let db: Db;
  const ORG = uuidv7();
  const OTHER = uuidv7();

  const counted = async (orgId: string, query: Partial<UserListQuery>) => {
    const result = await sql<{ n: number }>`
      select count(*)::int as n from users
      where org_id = ${orgId} and search_text like ${`%${escapeLike((query.search ?? '').toLowerCase())}%`}
        and (${query.status ?? null}::text is null or status = ${query.status ?? null})
        and (${query.isSystemAdmin ?? null}::boolean is null or is_system_admin = ${query.isSystemAdmin ?? null})`.execute(
      db,
    );
    return result.rows[0]?.n;
  };
  const keptSearches = (orgId: string) => keptSearchesOf(db, orgId);
  const expectTotals = async (repository: ReturnType<typeof createUsersRepository>, search: string) => {
    for (const filters of [
      {},
      { status: 'pending' as const },
      { isSystemAdmin: true },
      { status: 'active' as const, isSystemAdmin: false },
    ]) {
      const query = { pageSize: 25, pageNumber: 1, search, ...filters };
      expect((await repository.listUsers(ORG, query)).total, JSON.stringify(query)).toBe(await counted(ORG, query));
    }
  };

  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    await db
      .insertInto('organizations')
      .values([
        { id: ORG, name: 'Kept', slug: 'kept' },
        { id: OTHER, name: 'Other', slug: 'kept-other' },
      ])
      .execute();
    await insertUsers(db, [
      ...Array.from({ length: 60 }, (_, n) => user(ORG, n)),
      ...Array.from({ length: 10 }, (_, n) => user(ORG, 100 + n, `anna.${n}`)),
    ]);
  });
  afterAll(() => server.close());

  it('keeps a search found in many mailboxes once counted, and not one found in few', async () => {
    const repository = createUsersRepository(db, { keepSearchesFrom: 20, walkUpTo: 0 });
    await expectTotals(repository, 'user.');
    await expectTotals(repository, 'anna.');
    await expectTotals(repository, 'kept.example');
    expect(await keptSearches(ORG)).toEqual(['user.']);
    expect(await keptMismatches(db)).toEqual([]);
  });

  it('keeps the counts exact through inserts, renames, status and type changes, moves and deletes', async () => {
    const repository = createUsersRepository(db, { keepSearchesFrom: 20, walkUpTo: 0 });
    await expectTotals(repository, 'user.');
    const added = [user(ORG, 200), user(ORG, 201, 'anna.x'), user(ORG, 202)];
    await insertUsers(db, added);
    const rename = (mailbox: string) => {
      const email = `${mailbox}@kept.example`;
      return { email, search_text: searchText('Renamed', email), name: 'Renamed', sort_name: sortName('Renamed') };
    };
    await db
      .updateTable('users')
      .set(rename('user.renamed'))
      .where('id', '=', added[1]?.id ?? '')
      .execute();
    await db
      .updateTable('users')
      .set(rename('no-longer'))
      .where('id', '=', added[0]?.id ?? '')
      .execute();
    await db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('org_id', '=', ORG)
      .where('name', 'like', 'Person 1%')
      .execute();
    await db
      .updateTable('users')
      .set({ is_system_admin: true })
      .where('org_id', '=', ORG)
      .where('name', 'like', '山田%')
      .execute();
    await db.updateTable('users').set({ first_name: 'Only' }).where('org_id', '=', ORG).execute();
    await db
      .updateTable('users')
      .set({ org_id: OTHER })
      .where('id', '=', added[2]?.id ?? '')
      .execute();
    await db.deleteFrom('users').where('org_id', '=', ORG).where('name', '=', 'Person 7').execute();
    expect(await keptMismatches(db)).toEqual([]);
    await expectTotals(repository, 'user.');
    expect(await keptSearches(OTHER)).toEqual([]);
  });

  it('reads the total of a kept search from the kept counts, not from the rows', async () => {
    const repository = createUsersRepository(db, { keepSearchesFrom: 20, walkUpTo: 0 });
    const before = await counted(ORG, { search: 'user.' });
    await sql`update user_kept_searches set n = n + 1000 where org_id = ${ORG} and search = 'user.' and status = 'active' and not is_system_admin`.execute(
      db,
    );
    try {
      expect((await repository.listUsers(ORG, { pageSize: 25, pageNumber: 1, search: 'user.' })).total).toBe(
        (before ?? 0) + 1000,
      );
    } finally {
      await sql`update user_kept_searches set n = n - 1000 where org_id = ${ORG} and search = 'user.' and status = 'active' and not is_system_admin`.execute(
        db,
      );
    }
  });

  it('keeps no more searches per organisation than its limit, and counts the others per data version', async () => {
    const repository = createUsersRepository(db, { keepSearchesFrom: 20, maxKeptSearches: 1, walkUpTo: 0 });
    // Both are found in 20 or more names or mailboxes, but the organisation keeps one search already.
    await expectTotals(repository, 'erson');
    await expectTotals(repository, 'ser.');
    expect(await keptSearches(ORG)).toEqual(['user.']);
    const cached = await db.selectFrom('user_search_counts').select('query_key').where('org_id', '=', ORG).execute();
    expect(cached.map((row) => JSON.parse(row.query_key)[0])).toEqual(expect.arrayContaining(['erson', 'ser.']));
  });
});

describe('searches that most of a larger organisation holds, counted by walking its index', () => {
  let server: TestServer;
  let db: Db;
  const ORG = uuidv7();
  const kept = () => keptSearchesOf(db, ORG);

  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    await db.insertInto('organizations').values({ id: ORG, name: 'Dense', slug: 'dense' }).execute();
    // 60 mailboxes "user.N" at kept.example, and 10 users whose domain holds "user." too.
    await insertUsers(db, [
      ...Array.from({ length: 60 }, (_, n) => user(ORG, n)),
      ...Array.from({ length: 10 }, (_, n) => userRow(ORG, `Anna ${n}`, `anna.${n}@user.example`)),
    ]);
  });
  afterAll(() => server.close());

  it('totals every search the same by walking as through the search indexes', async () => {
    // Not a small organisation (70 users, more than 1): only a dense search walks.
    const walking = createUsersRepository(db, { walkUpTo: 1 });
    const throughIndexes = createUsersRepository(db, { walkUpTo: 0 });
    for (const search of ['user.', 'user', 'anna.', 'kept.example', 'user.1', 'son 1', '@user.ex']) {
      for (const filters of [{}, { status: 'pending' as const }, { isSystemAdmin: true }]) {
        const query = { pageSize: 25, pageNumber: 1, search, ...filters };
        await db.deleteFrom('user_search_counts').where('org_id', '=', ORG).execute();
        const walked = await walking.listUsers(ORG, query);
        await db.deleteFrom('user_search_counts').where('org_id', '=', ORG).execute();
        expect(walked.total, JSON.stringify(query)).toBe((await throughIndexes.listUsers(ORG, query)).total);
      }
    }
  });

  it('keeps a dense search by how many names or mailboxes hold it, not counting its domain', async () => {
    const page = { pageSize: 25, pageNumber: 1 };
    // "user." is in 60 mailboxes and in the domain of 10 more users: 70 in all.
    await createUsersRepository(db, { keepSearchesFrom: 61, walkUpTo: 1 }).listUsers(ORG, { ...page, search: 'user.' });
    expect(await kept()).toEqual([]);
    const repository = createUsersRepository(db, { keepSearchesFrom: 60, walkUpTo: 1 });
    await db.deleteFrom('user_search_counts').where('org_id', '=', ORG).execute();
    expect((await repository.listUsers(ORG, { ...page, search: 'user.' })).total).toBe(70);
    expect(await kept()).toEqual(['user.']);
    expect(await keptMismatches(db)).toEqual([]);
  });
});

// Writers at the same time as the first count need more than one connection: PostgreSQL only.
describe.skipIf(!process.env.TEST_DATABASE_URL).each([
  { plan: 'through the search indexes', walkUpTo: 0 },
  // "user.1" is held by more than half of the users: counted by walking the organisation's index.
  { plan: 'a dense search walking the index', walkUpTo: 1 },
])('a search kept while others write ($plan)', ({ walkUpTo }) => {
  let scratch: { url: string; drop(): Promise<void> };
  let database: DatabaseHandle;
  const ORG = uuidv7();
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? '');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    await database.db.insertInto('organizations').values({ id: ORG, name: 'Busy', slug: 'busy' }).execute();
    await insertUsers(
      database.db,
      Array.from({ length: 20_000 }, (_, n) => user(ORG, n)),
    );
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('misses no write that commits while the search is first counted', async () => {
    const repository = createUsersRepository(database.db, { keepSearchesFrom: 1000, walkUpTo });
    const pool = new pg.Pool({ connectionString: scratch.url, max: 3 });
    let writing = true;
    // Each writer's users hold every one of the searches in turn ("user.1…", "user.2…", …).
    const writer = async (from: number) => {
      for (let n = from; writing; n += 3) {
        const row = user(ORG, n, `user.${(n % 6) + 1}${n}`);
        await pool.query(
          `insert into users (org_id, id, name, email, status, is_external, is_system_admin, sort_name, search_text)
           values ($1, $2, $3, $4, $5, false, $6, $7, $8)`,
          [ORG, row.id, row.name, row.email, row.status, row.is_system_admin, row.sort_name, row.search_text],
        );
      }
    };
    const writers = [writer(30_000), writer(30_001), writer(30_002)];
    try {
      // Each search is new, so each request counts it and keeps it while the writers insert users
      // that hold it.
      for (const search of ['user.1', 'user.2', 'user.3', 'user.4', 'user.5', 'user.6']) {
        await repository.listUsers(ORG, { pageSize: 25, pageNumber: 1, search });
      }
    } finally {
      writing = false;
      await Promise.all(writers);
      await pool.end();
    }
    const kept = await database.db.selectFrom('user_kept_searches').select('search').distinct().execute();
    expect(kept.length).toBe(6);
    expect(await keptMismatches(database.db)).toEqual([]);
  }, 60_000);
});

describe('heavy searches, kept counted from a bulk load or a recount on', () => {
  let server: TestServer;
  let db: Db;
  const GROWN = uuidv7();
  let loaded: string;
  const page = { pageSize: 25, pageNumber: 1 };
  const foundAtLoad = async (orgId: string) => {
    const rows = await db
      .selectFrom('user_kept_searches')
      .select('search')
      .distinct()
      .where('org_id', '=', orgId)
      .where('found_at_load', '=', true)
      .orderBy('search')
      .execute();
    return rows.map((row) => row.search);
  };

  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    // Generated users: about half have a mailbox "user.N" (names in scripts other than Latin).
    loaded = await seedOrganization(db, { name: 'Loaded', slug: 'loaded', users: 400, heavySearchesFrom: 120 });
    await db.insertInto('organizations').values({ id: GROWN, name: 'Grown', slug: 'grown' }).execute();
    await insertUsers(
      db,
      Array.from({ length: 60 }, (_, n) => user(GROWN, n)),
    );
  });
  afterAll(() => server.close());

  it('keeps, at a load, the searches that many names or mailboxes hold, with exact counts', async () => {
    const heavy = await foundAtLoad(loaded);
    expect(heavy).toEqual(expect.arrayContaining(['ser.', 'user', 'user.']));
    expect(heavy.every((search) => [...search].length >= 4)).toBe(true);
    expect(await keptSearchesOf(db, loaded)).toEqual(heavy);
    expect(await keptMismatches(db)).toEqual([]);
  });

  it("answers a heavy search's first request from the kept counts, not from the rows", async () => {
    const repository = createUsersRepository(db, { walkUpTo: 0 });
    const { total } = await repository.listUsers(loaded, { ...page, search: 'user.' });
    await sql`update user_kept_searches set n = n + 1000 where org_id = ${loaded} and search = 'user.' and status = 'active' and not is_system_admin`.execute(
      db,
    );
    try {
      expect((await repository.listUsers(loaded, { ...page, search: 'user.' })).total).toBe(total + 1000);
      expect(await db.selectFrom('user_search_counts').select('org_id').where('org_id', '=', loaded).execute()).toEqual(
        [],
      );
    } finally {
      await sql`update user_kept_searches set n = n - 1000 where org_id = ${loaded} and search = 'user.' and status = 'active' and not is_system_admin`.execute(
        db,
      );
    }
  });

  it('keeps their counts exact through the writes that follow the load', async () => {
    const [first] = await db.selectFrom('users').select('id').where('org_id', '=', loaded).limit(1).execute();
    await insertUsers(db, [user(loaded, 1), user(loaded, 2, 'kein.user')]);
    await db
      .updateTable('users')
      .set({ status: 'disabled', is_system_admin: true })
      .where('id', '=', first?.id ?? '')
      .execute();
    await db.deleteFrom('users').where('org_id', '=', loaded).where('email', 'like', 'user.3%').execute();
    expect(await keptMismatches(db)).toEqual([]);
  });

  it('finds the heavy searches of an organisation that grew by writes when it is recounted, beside those requests kept', async () => {
    // "user.1" is in 11 mailboxes of 60: kept by this request. "user.", "user" and "ser." are in all.
    await createUsersRepository(db, { keepSearchesFrom: 10, walkUpTo: 0 }).listUsers(GROWN, {
      ...page,
      search: 'user.1',
    });
    expect(await keptSearchesOf(db, GROWN)).toEqual(['user.1']);
    expect(await foundAtLoad(GROWN)).toEqual([]);
    await recountOrganization(db, GROWN, { heavySearchesFrom: 60, bucketSearchesFrom: 50 });
    expect(await foundAtLoad(GROWN)).toEqual(['ser.', 'user', 'user.']);
    expect(await keptSearchesOf(db, GROWN)).toEqual(['ser.', 'user', 'user.', 'user.1']);
    expect(await keptMismatches(db)).toEqual([]);
    // Its densest heavy searches are counted in its page buckets, in both orders.
    const counted = await db
      .selectFrom('user_page_bucket_searches')
      .select(['search', 'by_name'])
      .distinct()
      .where('org_id', '=', GROWN)
      .where('found_at_load', '=', true)
      .orderBy('search')
      .orderBy('by_name')
      .execute();
    expect(counted.map((row) => `${row.search} ${row.by_name ? 'name' : 'id'}`)).toEqual([
      'ser. id',
      'ser. name',
      'user id',
      'user name',
      'user. id',
      'user. name',
    ]);
  });
});
