import { errorDocumentSchema, type UserListDocument, userListDocumentSchema } from '@users-admin/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { searchText, sortName } from '../src/lib/user-text.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import type { CookieJar } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

/** An organisation whose users are chosen to test search and sort exactly. */
const ORG = uuidv7();
const PEOPLE: {
  name: string;
  email: string;
  status: 'active' | 'inactive' | 'pending' | 'disabled';
  admin: boolean;
}[] = [
  { name: 'anna Lind', email: 'anna@shop.example', status: 'active', admin: false },
  { name: 'Anna Berg', email: 'berg@shop.example', status: 'pending', admin: true },
  { name: 'Émile Zola', email: 'emile@shop.example', status: 'inactive', admin: false },
  { name: 'Bob 100%', email: 'percent@shop.example', status: 'active', admin: false },
  { name: 'Under_Score', email: 'under_score@shop.example', status: 'disabled', admin: false },
  { name: 'Back\\Slash', email: 'slash@shop.example', status: 'active', admin: true },
  { name: 'zoë Ärger', email: 'zoe@shop.example', status: 'pending', admin: false },
  { name: '山田 太郎', email: 'yamada@shop.example', status: 'active', admin: false },
  { name: 'Same Name', email: 'same1@shop.example', status: 'active', admin: false },
  { name: 'same name', email: 'same2@shop.example', status: 'active', admin: false },
];

describe('searching, filtering and sorting the users list', () => {
  let server: TestServer;
  let jar: CookieJar;

  const get = (query: string) =>
    fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${ORG}/users${query}`, { headers: { cookie: jar.header() } });
  const names = async (query: string) => {
    const response = await get(query);
    expect(response.status).toBe(200);
    const document: UserListDocument = userListDocumentSchema.parse(await response.json());
    return document.data.map((user) => user.attributes.name).filter((name) => name !== 'Shop Admin');
  };

  beforeAll(async () => {
    server = await startTestServer();
    const { db } = server.database;
    await db.insertInto('organizations').values({ id: ORG, name: 'Shop', slug: 'shop' }).execute();
    await insertUsers(
      db,
      PEOPLE.map((person, index) => ({
        org_id: ORG,
        id: uuidv7(Date.now() - 100_000 + index * 1000),
        name: person.name,
        email: person.email,
        initials: null,
        first_name: null,
        last_name: null,
        status: person.status,
        is_external: false,
        is_system_admin: person.admin,
        sort_name: sortName(person.name),
        search_text: searchText(person.name, person.email),
      })),
    );
    jar = await signedInAdminOf(db, server.baseUrl, { id: ORG, slug: 'shop', name: 'Shop' });
  });
  afterAll(() => server.close());

  it('lists unsorted users in the order they joined', async () => {
    expect(await names('')).toEqual(PEOPLE.map((p) => p.name));
  });

  it('sorts by name case-insensitively and without regard to accents, ties broken stably', async () => {
    expect(await names('?sort=name')).toEqual([
      'Anna Berg',
      'anna Lind',
      'Back\\Slash',
      'Bob 100%',
      'Émile Zola',
      'Same Name',
      'same name',
      'Under_Score',
      'zoë Ärger',
      '山田 太郎',
    ]);
    const descending = await names('?sort=-name');
    expect(descending).toEqual([...(await names('?sort=name'))].reverse());
  });

  it('searches name or email as a case-insensitive substring', async () => {
    expect(await names('?filter[query]=ANNA')).toEqual(['anna Lind', 'Anna Berg']);
    expect(await names('?filter[query]=berg%40shop')).toEqual(['Anna Berg']);
    expect(await names('?filter[query]=%E5%B1%B1%E7%94%B0')).toEqual(['山田 太郎']);
  });

  it('matches %, _ and \\ as themselves, never as wildcards', async () => {
    expect(await names('?filter[query]=%25')).toEqual(['Bob 100%']);
    expect(await names('?filter[query]=_')).toEqual(['Under_Score']);
    expect(await names('?filter[query]=%5C')).toEqual(['Back\\Slash']);
  });

  it('never matches across the name and the email', async () => {
    expect(await names('?filter[query]=lindanna')).toEqual([]);
    expect(await names('?filter[query]=lind%20anna')).toEqual([]);
  });

  it('combines search, status, user type and sort', async () => {
    expect(await names('?filter[status]=pending&sort=-name')).toEqual(['zoë Ärger', 'Anna Berg']);
    expect(await names('?filter[is_system_admin]=true&filter[query]=a&sort=name')).toEqual([
      'Anna Berg',
      'Back\\Slash',
    ]);
    expect(await names('?filter[is_system_admin]=false&filter[status]=active&filter[query]=same')).toEqual([
      'Same Name',
      'same name',
    ]);
  });

  it('answers the first page of every filter and sort with the exact total, and 0 when nobody matches', async () => {
    // Everyone, the signed-in Shop Admin (an active System Admin) included, as they joined and by name.
    const everyone = [...PEOPLE, { name: 'Shop Admin', email: 'admin@shop.example', status: 'active', admin: true }];
    const byName = ['Anna Berg', 'anna Lind', 'Back\\Slash', 'Bob 100%', 'Émile Zola', 'Same Name', 'same name'];
    byName.push('Shop Admin', 'Under_Score', 'zoë Ärger', '山田 太郎');
    for (const status of [undefined, 'active', 'inactive', 'pending', 'disabled'] as const) {
      for (const admin of [undefined, true, false]) {
        const matching = new Set(
          everyone
            .filter(
              (person) => (!status || person.status === status) && (admin === undefined || person.admin === admin),
            )
            .map((person) => person.name),
        );
        for (const sort of [undefined, 'name', '-name'] as const) {
          const params = new URLSearchParams({ 'page[size]': '3' });
          if (status) params.set('filter[status]', status);
          if (admin !== undefined) params.set('filter[is_system_admin]', String(admin));
          if (sort) params.set('sort', sort);
          const document = userListDocumentSchema.parse(await (await get(`?${params}`)).json());
          const order = sort ? byName : everyone.map((person) => person.name);
          const expected = order.filter((name) => matching.has(name));
          if (sort === '-name') expected.reverse();
          expect(document.meta.total_count, `${params}`).toBe(matching.size);
          expect(
            document.data.map((user) => user.attributes.name),
            `${params}`,
          ).toEqual(expected.slice(0, 3));
        }
      }
    }
  });

  it('answers every random combination with a 200 that matches it or a 400 that names the parameter', async () => {
    const value = fc.oneof(
      fc.constantFrom(
        '',
        '0',
        '1',
        '-1',
        '1.5',
        '1e3',
        '99999999999',
        'true',
        'false',
        'name',
        '-name',
        'active',
        'pending',
      ),
      fc.constantFrom("' or 1=1 --", '%', '_', '\\', '%_\\', '\u0000', '\u202e', '😀', 'ﬁ', '../..'),
      fc.string({ maxLength: 12 }),
    );
    const key = fc.constantFrom(
      'page[size]',
      'page[number]',
      'sort',
      'filter[query]',
      'filter[status]',
      'filter[is_system_admin]',
      'filter[other]',
      'page[offset]',
      'include',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 4 }), async (pairs) => {
        const params = new URLSearchParams(pairs);
        const response = await get(`?${params}`);
        const text = await response.text();
        expect(text).not.toMatch(/stack|syntax error|select |node_modules/i);
        if (response.status === 400) {
          const body = errorDocumentSchema.parse(JSON.parse(text));
          for (const error of body.errors) expect(error.source?.parameter).toBeTruthy();
          return;
        }
        expect(response.status).toBe(200);
        const document = userListDocumentSchema.parse(JSON.parse(text));
        const search = params.get('filter[query]')?.toLowerCase();
        const status = params.get('filter[status]');
        for (const user of document.data) {
          if (search) {
            expect(`${user.attributes.name.toLowerCase()}\u001f${user.attributes.email.toLowerCase()}`).toContain(
              search,
            );
          }
          if (status) expect(user.attributes.status).toBe(status);
        }
      }),
      { numRuns: 150 },
    );
  });
});
