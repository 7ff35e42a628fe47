import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { recountOrganization } from '../src/db/recount.ts';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { escapeLike } from '../src/lib/user-text.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { spanMismatches } from './support/search-spans.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

/** Every kept count of the organisation that differs from its users as they are now. */
async function keptMismatches(db: Db, orgId: string): Promise<unknown[]> {
  const counts = await sql`
    select coalesce(k.status, a.status) as status, k.n as kept, a.n as actual
    from (select * from user_counts where org_id = ${orgId}) k
    full join (select status, is_system_admin, count(*) as n from users where org_id = ${orgId} group by 1, 2) a
      using (status, is_system_admin)
    where coalesce(k.n, 0) <> coalesce(a.n, 0)`.execute(db);
  const grams = await sql`
    select coalesce(k.gram, a.gram) as gram, k.n as kept, a.n as actual
    from (select * from user_search_grams where org_id = ${orgId}) k
    full join (
      select g.gram, u.status, u.is_system_admin, count(*) as n
      from users u cross join lateral search_grams(u.search_text) g(gram)
      where u.org_id = ${orgId} group by 1, 2, 3
    ) a using (gram, status, is_system_admin)
    where coalesce(k.n, 0) <> coalesce(a.n, 0) limit 5`.execute(db);
  const kept = await sql`
    select k.search, k.status, k.n as kept, (
      select count(*) from users u
      where u.org_id = k.org_id and u.status = k.status and u.is_system_admin = k.is_system_admin
        and strpos(u.search_text, k.search) > 0
    ) as actual
    from user_kept_searches k where k.org_id = ${orgId}`.execute(db);
  return [
    ...counts.rows,
    ...grams.rows,
    ...kept.rows.filter(
      (row) => Number((row as { kept: unknown }).kept) !== Number((row as { actual: unknown }).actual),
    ),
  ];
}

describe('recounting an organisation whose kept counts were bypassed', () => {
  let server: TestServer;
  let db: Db;
  const ORG = uuidv7();
  const rows = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) =>
      userRow(ORG, `Person ${from + i}`, `user.${from + i}@recount.example`, {
        status: (['active', 'pending', 'disabled'] as const)[(from + i) % 3] ?? 'active',
        is_system_admin: (from + i) % 4 === 0,
      }),
    );

  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    await db.insertInto('organizations').values({ id: ORG, name: 'Recount', slug: 'recount' }).execute();
    await insertUsers(db, rows(0, 40));
    // A search kept counted, so that its counts are repaired too.
    await createUsersRepository(db, { keepSearchesFrom: 10, walkUpTo: 0 }).listUsers(ORG, {
      pageSize: 25,
      pageNumber: 1,
      search: 'user.1',
    });
  });
  afterAll(() => server.close());

  it('makes every kept count exact again after writes that bypassed the triggers, and ends a pending bulk load', async () => {
    expect(await db.selectFrom('user_kept_searches').select('search').where('org_id', '=', ORG).execute()).not.toEqual(
      [],
    );
    const before = await db
      .selectFrom('org_data_versions')
      .select('version')
      .where('org_id', '=', ORG)
      .executeTakeFirstOrThrow();
    // Writes the triggers never saw: a restore with triggers disabled, and a bulk load that was
    // killed before writing its grams.
    await sql`alter table users disable trigger user`.execute(db);
    try {
      await insertUsers(db, rows(100, 30));
      await db.deleteFrom('users').where('org_id', '=', ORG).where('name', 'like', 'Person 1%').execute();
    } finally {
      await sql`alter table users enable trigger user`.execute(db);
    }
    await db.insertInto('user_search_grams_pending').values({ org_id: ORG }).execute();
    expect(await keptMismatches(db, ORG)).not.toEqual([]);

    await recountOrganization(db, ORG);

    expect(await keptMismatches(db, ORG)).toEqual([]);
    // The spans too, no wider than the users who are there now.
    expect(
      (await spanMismatches(db, { exact: true })).filter((row) => (row as { org_id: string }).org_id === ORG),
    ).toEqual([]);
    expect(await db.selectFrom('user_search_grams_pending').selectAll().where('org_id', '=', ORG).execute()).toEqual(
      [],
    );
    const after = await db
      .selectFrom('org_data_versions')
      .select('version')
      .where('org_id', '=', ORG)
      .executeTakeFirstOrThrow();
    expect(Number(after.version)).toBeGreaterThan(Number(before.version));
    const repository = createUsersRepository(db, { keepSearchesFrom: 10, walkUpTo: 0 });
    for (const search of ['user.1', 'user', '.10', 'recount.example', 'pers']) {
      const { total } = await repository.listUsers(ORG, { pageSize: 25, pageNumber: 1, search, status: 'pending' });
      const counted = await sql<{ n: number }>`
        select count(*)::int as n from users where org_id = ${ORG} and status = 'pending'
          and search_text like ${`%${escapeLike(search)}%`}`.execute(db);
      expect(total, search).toBe(counted.rows[0]?.n);
    }
  });
});
