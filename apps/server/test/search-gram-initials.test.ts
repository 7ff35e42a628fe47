import type { UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { searchText, sortName } from '../src/lib/user-text.ts';
import { nameRange, nextInitial } from '../src/repositories/search-gram-initials.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { createScratchDatabase } from './support/test-server.ts';

const ORG = uuidv7();
const NAMES = [
  'Anna Lind',
  'Marta Berg',
  'Émile Zola',
  'zoë Ärger',
  'Андрей Иванов',
  'Мария Смирнова',
  '山田 太郎',
  '',
];
const SEARCHES = ['an', 'mar', 'ма', 'ан', 'a', 'zo', '山田', 'shop', 'x@s', 'nobody'];

/** The walks of a search by name start where its pairs' initials say, and find what the plain test finds. */
describe('the initials of the search pairs', () => {
  let database: DatabaseHandle;
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  const people = NAMES.map((name, index) => ({
    id: uuidv7(Date.now() - 100_000 + index),
    name,
    email: `p${index}@shop.example`,
  }));

  beforeAll(async () => {
    scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase(process.env.TEST_DATABASE_URL) : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://' });
    const { db } = database;
    await db.insertInto('organizations').values({ id: ORG, name: 'Shop', slug: 'initials-shop' }).execute();
    await insertUsers(
      db,
      people.map((person) => row(person)),
    );
  });
  afterAll(async () => {
    await database.close();
    await scratch?.drop();
  });

  const row = (person: { id: string; name: string; email: string }) => ({
    org_id: ORG,
    ...person,
    initials: null,
    first_name: null,
    last_name: null,
    status: 'active' as const,
    is_external: false,
    is_system_admin: false,
    sort_name: sortName(person.name),
    search_text: searchText(person.name, person.email),
  });

  /** What a search by name must list: the plain test on every user, in the order of sort_name (code points) and id. */
  const expected = (search: string, descending: boolean) => {
    const order = people
      .filter((person) => searchText(person.name, person.email).includes(search.toLowerCase()))
      .map((person) => ({ ...person, key: sortName(person.name) }))
      .sort((a, b) => (a.key === b.key ? (a.id < b.id ? -1 : 1) : a.key < b.key ? -1 : 1))
      .map((person) => person.id);
    return descending ? order.reverse() : order;
  };

  const walked = async (search: string, sort: 'name' | '-name') => {
    const query: UserListQuery = { pageSize: 100, pageNumber: 1, search, sort, exactTotal: true };
    const page = await createUsersRepository(database.db).listUsers(ORG, query);
    return page.users.map((user) => user.id);
  };

  const everySearchMatches = async () => {
    for (const search of SEARCHES) {
      expect(await walked(search, 'name'), search).toEqual(expected(search, false));
      expect(await walked(search, '-name'), search).toEqual(expected(search, true));
    }
  };

  it('bound a walk by name and lose no match, in either order', everySearchMatches);

  it('follow a rename and an insert into another initial', async () => {
    const { db } = database;
    const renamed = people[4];
    if (!renamed) throw new Error('no user to rename');
    // Ħ has no decomposition: a new initial for the pairs of "anders".
    renamed.name = 'Ħarald Anders';
    await db
      .updateTable('users')
      .set({
        name: renamed.name,
        sort_name: sortName(renamed.name),
        search_text: searchText(renamed.name, renamed.email),
      })
      .where('org_id', '=', ORG)
      .where('id', '=', renamed.id)
      .execute();
    await everySearchMatches();
    const added = { id: uuidv7(), name: 'Ωmega Manuel', email: 'omega@shop.example' };
    people.push(added);
    await insertUsers(db, [row(added)]);
    await everySearchMatches();
  });

  it('range a search over the initials holding all of its pairs', async () => {
    expect(await nameRange(database.db, ORG, 'мари')).toEqual({ from: 'м', before: 'н' });
    expect(await nameRange(database.db, ORG, 'a')).toEqual({});
    expect(await nameRange(database.db, ORG, 'qqq')).toEqual({});
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from search_gram_initials where initial = ''`.execute(database.db);
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  it('name the least string after an initial', () => {
    expect(nextInitial('a')).toBe('b');
    expect(nextInitial('')).toBe('\u0001');
    expect(nextInitial('\ud7ff')).toBe('\ue000');
    expect(nextInitial('\u{10ffff}')).toBeUndefined();
  });
});
