import type { UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { bucketMismatches } from './support/page-buckets.ts';
import { createScratchDatabase } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

// Concurrent writers need a server with more than one connection: PostgreSQL only (PGlite serves
// one connection at a time).
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('writers of one organisation at the same time', () => {
  let scratch: { url: string; drop(): Promise<void> };
  let database: DatabaseHandle;
  const org = uuidv7();
  const users = (['active', 'pending'] as const).map((status) =>
    userRow(org, `Writer ${status}`, `${status}@writers.example`, { status }),
  );

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl ?? '');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
    await database.db.insertInto('organizations').values({ id: org, name: 'Writers', slug: 'writers' }).execute();
    await insertUsers(database.db, users);
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('moves users between statuses in opposite directions without deadlocks, and the counts stay exact', async () => {
    // Each writer flips its own user between active and pending, so the two lock the same count
    // rows in opposite directions. With the locks taken unordered, PostgreSQL ended one of them
    // with a deadlock about once a second.
    const writer = async (id: string) => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      let deadlocks = 0;
      let writes = 0;
      try {
        const until = Date.now() + 3000;
        while (Date.now() < until) {
          try {
            await client.query(
              `update users set status = case status when 'active' then 'pending' else 'active' end
               where org_id = $1 and id = $2`,
              [org, id],
            );
            writes++;
          } catch (error) {
            if ((error as { code?: string }).code !== '40P01') throw error;
            deadlocks++;
          }
        }
      } finally {
        await client.end();
      }
      return { deadlocks, writes };
    };
    const results = await Promise.all(users.flatMap((user) => [writer(user.id), writer(user.id)]));
    expect(results.map((result) => result.deadlocks)).toEqual([0, 0, 0, 0]);
    expect(Math.min(...results.map((result) => result.writes))).toBeGreaterThan(50);

    const mismatches = await sql`
      select coalesce(c.status, a.status) as status, c.n as kept, a.n as actual
      from (select * from user_counts where org_id = ${org}) c
      full join (select status, is_system_admin, count(*) as n from users where org_id = ${org} group by 1, 2) a
        using (status, is_system_admin)
      where coalesce(c.n, 0) <> coalesce(a.n, 0)`.execute(database.db);
    expect(mismatches.rows).toEqual([]);
    expect(await bucketMismatches(database.db)).toEqual([]);
  }, 30_000);

  it('keeps the page buckets exact while writers add users whose names fall in the same buckets, cutting them', async () => {
    // Four writers, each adding users 250 at a time whose names sort together: the buckets they
    // fall in grow past 2,000 and are cut while the others wait to write.
    const writer = async (name: string) => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        for (let batch = 0; batch < 6; batch++) {
          const rows = Array.from({ length: 250 }, (_, n) =>
            userRow(org, `${name} ${batch}-${n}`, `${name}.${batch}.${n}@writers.example`, {
              status: n % 3 ? 'active' : 'pending',
              is_system_admin: n % 7 === 0,
            }),
          );
          await client.query(
            `insert into users (org_id, id, name, email, status, is_external, is_system_admin, sort_name, search_text)
             select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::boolean[],
               $7::boolean[], $8::text[], $9::text[])`,
            [
              rows.map((row) => row.org_id),
              rows.map((row) => row.id),
              rows.map((row) => row.name),
              rows.map((row) => row.email),
              rows.map((row) => row.status),
              rows.map(() => false),
              rows.map((row) => row.is_system_admin),
              rows.map((row) => row.sort_name),
              rows.map((row) => row.search_text),
            ],
          );
        }
      } finally {
        await client.end();
      }
    };
    await Promise.all(['Maria', 'Marie', 'Mario', 'Marius'].map(writer));
    const sizes = await sql<{ users: number }>`
      select n[1] + n[2] + n[3] + n[4] + n[5] + n[6] + n[7] + n[8] as users from user_page_buckets
      where org_id = ${org}`.execute(database.db);
    expect(sizes.rows.length).toBeGreaterThan(4);
    expect(Math.max(...sizes.rows.map((row) => row.users))).toBeLessThanOrEqual(2000);
    expect(await bucketMismatches(database.db)).toEqual([]);
  }, 60_000);
  it('counts a search per page bucket while writers change its users: no errors, and its pages exact once they stop', async () => {
    // Runs after the test above: about 6,000 users, 1,500 of them "Marie …" (mailboxes "marie.…").
    const users = createUsersRepository(database.db, { bucketSearchesFrom: 0, bucketsCountedAtOnce: 2 });
    const shapes: UserListQuery[] = [
      { pageSize: 25, pageNumber: 1, search: 'e.' },
      { pageSize: 25, pageNumber: 1, search: 'e.', sort: 'name' },
      { pageSize: 10, pageNumber: 1, search: 'o.', sort: '-name', status: 'active' },
    ];
    let stop = false;
    const reader = async (shape: UserListQuery) => {
      let pages = 0;
      while (!stop) {
        const { total } = await users.listUsers(org, shape);
        const last = Math.max(1, Math.ceil(total / shape.pageSize));
        await users.listUsers(org, { ...shape, pageNumber: 2 + (pages % Math.max(1, last - 2)) });
        pages++;
      }
      return pages;
    };
    const writer = async (name: string) => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        for (let round = 0; round < 20; round++) {
          // One user comes to hold "e.", another stops; a few join.
          await client.query(
            `update users set email = 'e.' || email, search_text = search_text || 'e.'
             where org_id = $1 and id = (select id from users where org_id = $1 and not strpos(search_text, 'e.') > 0
               order by sort_name offset $2 limit 1)`,
            [org, round * 97],
          );
          await client.query(
            `update users set email = replace(email, 'marie.', 'mary.'), search_text = replace(search_text, 'marie.', 'mary.')
             where org_id = $1 and id = (select id from users where org_id = $1 and strpos(search_text, 'marie.') > 0
               order by id offset $2 limit 1)`,
            [org, round * 31],
          );
          const row = userRow(org, `${name} ${round}`, `${name.toLowerCase()}.${round}@writers.example`);
          await client.query(
            `insert into users (org_id, id, name, email, status, is_external, is_system_admin, sort_name, search_text)
             values ($1, $2, $3, $4, 'active', false, false, $5, $6)`,
            [row.org_id, row.id, row.name, row.email, row.sort_name, row.search_text],
          );
        }
      } finally {
        await client.end();
      }
    };
    const readers = Promise.all([...shapes, ...shapes].map(reader));
    await Promise.all(['Leo', 'Theo'].map(writer));
    stop = true;
    expect(Math.min(...(await readers))).toBeGreaterThan(0);
    // Once the writes stop, every page is the plain OFFSET query's.
    for (const shape of shapes) {
      const { total } = await users.listUsers(org, shape);
      for (const pageNumber of [2, Math.ceil(total / shape.pageSize / 2), Math.ceil(total / shape.pageSize) - 1]) {
        const query = { ...shape, pageNumber };
        const direction = query.sort === '-name' ? 'desc' : 'asc';
        const naive = await sql<{ id: string }>`
          select id from users where org_id = ${org} and strpos(search_text, ${query.search ?? ''}) > 0
            and (${query.status ?? null}::text is null or status = ${query.status ?? null})
          order by ${query.sort ? sql`sort_name ${sql.raw(direction)}, id ${sql.raw(direction)}` : sql`id`}
          offset ${(pageNumber - 1) * query.pageSize} limit ${query.pageSize}`.execute(database.db);
        expect(
          (await users.listUsers(org, query)).users.map((u) => u.id),
          JSON.stringify(query),
        ).toEqual(naive.rows.map((row) => row.id));
      }
    }
  }, 60_000);

  it('answers a search whose list another request stores at the same moment, rather than failing the count', async () => {
    // The count builds the search's list in its own repeatable-read snapshot: a list of the same key
    // that another request committed meanwhile is a serialization failure for that statement.
    const repository = createUsersRepository(database.db, { walkUpTo: 0 });
    const query: UserListQuery = { pageSize: 25, pageNumber: 1, search: 'ter a' };
    await database.db.deleteFrom('user_search_counts').execute();
    await database.db.deleteFrom('user_search_lists').execute();
    const other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(
        `insert into user_search_lists (org_id, list_key, version, ids)
         select org_id, $2, version, '{}' from org_data_versions where org_id = $1`,
        [org, JSON.stringify(['id', null, null, 'ter a'])],
      );
      // Counted while the other's list is not yet committed: its insert waits, then meets it.
      const answer = repository.listUsers(org, query);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('commit');
      const page = await answer;
      expect(page.total).toBe(1);
      expect(page.users.map((user) => user.name)).toEqual(['Writer active']);
    } finally {
      await other.end();
    }
  });
});
