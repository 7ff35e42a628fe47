import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type UserListDocument, type UserStatus, userListDocumentSchema } from '@users-admin/contract';
import fc from 'fast-check';
import { Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { characterTypeWarning, type Db, migrate } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { PGliteDialect } from '../src/db/pglite-dialect.ts';
import type { Database, NewUserRow } from '../src/db/schema.ts';
import { insertUsers, seedOrganization } from '../src/db/seed.ts';
import { createRandom, generateUser } from '../src/db/seed-data.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import {
  escapeLike,
  mailboxEndPattern,
  SEARCH_SEPARATOR,
  searchGrams,
  searchText,
  searchWords,
  sortName,
  trigramIndexNarrows,
} from '../src/lib/user-text.ts';
import { acrossTheAt, createUsersRepository } from '../src/repositories/users-repository.ts';
import { signedInAdminOf } from './support/org-admin.ts';
import { spanMismatches } from './support/search-spans.ts';
import type { CookieJar } from './support/sign-in.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

/** Rows of `user_search_grams` that differ from the grams of the users as they are now. */
async function gramMismatches(db: Db): Promise<unknown[]> {
  const result = await sql`
    select coalesce(kept.org_id, actual.org_id) as org_id, coalesce(kept.gram, actual.gram) as gram,
           coalesce(kept.status, actual.status) as status, kept.n as kept, actual.n as actual
    from user_search_grams kept
    full join (
      select u.org_id, g.gram, u.status, u.is_system_admin, count(*) as n
      from users u cross join lateral search_grams(u.search_text) g(gram)
      where u.org_id not in (select org_id from user_search_grams_pending)
      group by 1, 2, 3, 4
    ) actual using (org_id, gram, status, is_system_admin)
    where coalesce(kept.n, 0) <> coalesce(actual.n, 0)
    limit 5`.execute(db);
  return result.rows;
}

function user(orgId: string, name: string, email: string, status: UserStatus = 'active', admin = false): NewUserRow {
  return userRow(orgId, name, email, { status, is_system_admin: admin });
}

/**
 * Names written with marks that are not Alphabetic in Unicode (migration 0023): Bengali and Tamil
 * viramas, Thai tone marks, a Hindi nukta, the Khmer coeng, a decomposed accent, a joiner.
 */
const MARKED_NAMES = [
  'নন্দিনী চক্রবর্তী',
  'লক্ষ্মী দত্ত',
  'தமிழ்செல்வி சுப்ரமணியம்',
  'สมศักดิ์ ก่อนเก่า',
  'ญาญ่า สุขใจ',
  'ज़ैनब क़ुरैशी',
  'សុខ ស្រីពៅ',
  'jose\u0301 nun\u0303ez',
  'నాగార్జున',
  'क्\u200dष',
];

describe('exact totals of 1–3 character searches kept as counts of grams', () => {
  let server: TestServer;
  let db: Db;
  const ORG = uuidv7();
  let jar: CookieJar;

  const total = async (orgId: string, query: string) => {
    const response = await fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query}`, {
      headers: { cookie: jar.header() },
    });
    expect(response.status).toBe(200);
    const document: UserListDocument = userListDocumentSchema.parse(await response.json());
    return document.meta.total_count;
  };
  /** The same total counted from the rows. */
  const counted = async (orgId: string, search: string, status?: string, admin?: boolean) => {
    const result = await sql<{ n: number }>`
      select count(*)::int as n from users
      where org_id = ${orgId} and search_text like ${`%${escapeLike(search.toLowerCase())}%`}
        and (${status ?? null}::text is null or status = ${status ?? null})
        and (${admin ?? null}::boolean is null or is_system_admin = ${admin ?? null})`.execute(db);
    return result.rows[0]?.n;
  };

  beforeAll(async () => {
    // The search's indexes, not the walk that a list this short is given (walkUpTo).
    server = await startTestServer({}, { users: { walkUpTo: 0 } });
    db = server.database.db;
    await db.insertInto('organizations').values({ id: ORG, name: 'Grams', slug: 'grams' }).execute();
    await insertUsers(db, [
      user(ORG, 'Anna Lind', 'anna@grams.example'),
      user(ORG, 'ANNE Berg', 'berg@grams.example', 'pending', true),
      user(ORG, 'Zoë 100%', 'zoe_1@grams.example', 'inactive'),
      user(ORG, '山田 太郎', 'yamada@grams.example', 'disabled'),
      user(ORG, 'Emoji 👩🏽‍💻', 'emoji@grams.example'),
    ]);
    jar = await signedInAdminOf(db, server.baseUrl, { id: ORG, slug: 'grams', name: 'Grams' });
  });
  afterAll(() => server.close());

  it('computes in the page server the same grams as the database, for any text', async () => {
    const texts = fc.sample(
      fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 12 })),
      { numRuns: 200, seed: 20261122 },
    );
    texts.push(['Zoë 👩🏽‍💻 山田', 'x@y'], ['', ''], ['ab', ''], ['%_\\', 'a']);
    for (const [name, email] of texts) {
      if (name.includes('\u0000') || email.includes('\u0000')) continue;
      const text = searchText(name, email);
      const result = await sql<{ gram: string }>`select search_grams(${text}) as gram`.execute(db);
      expect(new Set(result.rows.map((row) => row.gram)), JSON.stringify(text)).toEqual(searchGrams(text));
    }
  });

  it('turns punctuation into letters in the page server as the database does, for any text', async () => {
    const texts = fc.sample(fc.string({ unit: 'grapheme', maxLength: 16 }), { numRuns: 200, seed: 20261125 });
    texts.push(" .@-_'+,", 'अनन्या शर्मा', 'r.41', "o'brien-smith_x+y@", 'qj %\\', '', ...MARKED_NAMES);
    // And every character of the blocks whose marks it turns (migration 0023), alone between letters.
    for (const [from, to] of [
      [0x0300, 0x036f],
      [0x0900, 0x1cff],
      [0x2000, 0x200f],
    ] as const) {
      for (let code = from; code <= to; code++) texts.push(`x${String.fromCodePoint(code)}x`);
    }
    const { rows: words } = await sql<{ text: string; words: string }>`
      select t as text, search_words(t) as words from unnest(${texts.filter((text) => !text.includes('\u0000'))}::text[]) t`.execute(
      db,
    );
    expect(words.length).toBeGreaterThan(5000);
    for (const { text, words: inDatabase } of words) expect(inDatabase, JSON.stringify(text)).toBe(searchWords(text));
    // Every pair of letters it turns punctuation and marks into is made of word characters of
    // pg_trgm, in any locale, so that "x.x" is one word: "  x", " xq", "xqj", "qjx", "jx ".
    for (const punctuation of [..." .@-_'+,\u094D\u09CD\u0BCD\u0E48\u17D2\u0301\u200D"]) {
      const words = sql`search_words(${`x${punctuation}x`})`;
      const { rows } = await sql<{ n: number }>`select cardinality(show_trgm(${words})) as n`.execute(db);
      expect(rows[0]?.n, punctuation).toBe(5);
    }
  });

  it('warns the operator of a database whose character type keeps the trigram index to ASCII, and only then', async () => {
    // PGlite's pg_trgm takes every script; the tests' PostgreSQL runs in the C locale, which does not.
    const { rows } = await sql<{ cyrillic: number; ctype: string }>`
      select cardinality(show_trgm('кузнец')) as cyrillic,
             (select datctype from pg_database where datname = current_database()) as ctype`.execute(db);
    const warning = await characterTypeWarning(db);
    if ((rows[0]?.cyrillic ?? 0) > 0) {
      expect(warning).toBeUndefined();
    } else {
      expect(warning).toContain(`character type is ${rows[0]?.ctype}`);
      expect(warning).toContain('createdb --template=template0 --locale=C.UTF-8');
    }
  });

  it('knows which searches the trigram index narrows, in every script of the seeded names, as the database takes their words', async () => {
    // Searches of three to five characters from the heads (names and mailboxes) of seeded users,
    // in every script; the index is of the heads, as the users' is.
    const random = createRandom(20261126);
    const texts = Array.from({ length: 400 }, (_, n) => {
      const person = generateUser(random, n, 'probe.example');
      return searchText(person.name, person.email).replace(/@[^@]*$/, '@');
    });
    texts.push(...MARKED_NAMES.map((name) => searchText(name, 'x@').replace(/@[^@]*$/, '@')));
    const searches = new Set<string>([
      ...['नन्य', 'शर्म', 'गुप्त', 'दिया', 'विहान', 'r.41', 'n le', 'a.b'],
      ...['নন্দ', 'ন্দি', 'ழ்செ', 'தமிழ்', 'ศักดิ์', 'ก่อน', 'ญ่', 'jose\u0301', 'ज़ैन', 'ক্ষ'],
    ]);
    for (const [n, text] of texts.entries()) {
      const characters = [...(text.split(SEARCH_SEPARATOR)[n % 2] ?? '')];
      const length = 3 + (n % 3);
      const start = Math.floor(random() * Math.max(1, characters.length - length));
      searches.add(characters.slice(start, start + length).join(''));
    }
    const { rows } = await sql<{ unicode: boolean }>`select show_trgm('жжж') <> '{}' as unicode`.execute(db);
    const unicodeWords = rows[0]?.unicode === true;
    await db.transaction().execute(async (tx) => {
      await sql`create temporary table trigram_probe (head text, words text) on commit drop`.execute(tx);
      await sql`insert into trigram_probe select t, search_words(t) from unnest(${texts}::text[]) t`.execute(tx);
      await sql`create index on trigram_probe using gin (words gin_trgm_ops)`.execute(tx);
      await sql`set local enable_seqscan = off`.execute(tx);
      for (const search of searches) {
        const words = searchWords(escapeLike(search));
        // Three word characters in a row, as the database's own classes (those pg_trgm takes) say.
        const { rows: run } = await sql<{ run: boolean }>`select ${words} ~ '[[:alnum:]]{3}' as run`.execute(tx);
        const narrows = trigramIndexNarrows(search, unicodeWords);
        expect(narrows, JSON.stringify(search)).toBe(run[0]?.run);
        if (!narrows) continue;
        // And the index hands over fewer than every row (it does all of them when it has no trigram).
        const { rows: plans } = await sql<{ 'QUERY PLAN': unknown }>`
          explain (analyze, format json) select count(*) from trigram_probe where words like ${`%${words}%`}`.execute(
          tx,
        );
        const read = JSON.stringify(plans[0]?.['QUERY PLAN']).match(/"Bitmap Index Scan".*?"Actual Rows":(\d+)/)?.[1];
        expect(Number(read), JSON.stringify(search)).toBeLessThan(texts.length);
        // And through the index every head that holds the search is found.
        const { rows: found } = await sql<{ through: number; holding: number }>`
          select count(*) filter (where words like ${`%${words}%`} and head like ${`%${escapeLike(search)}%`})::int as through,
                 count(*) filter (where head like ${`%${escapeLike(search)}%`})::int as holding
          from trigram_probe`.execute(tx);
        expect(found[0]?.through, JSON.stringify(search)).toBe(found[0]?.holding);
      }
    });
  });

  it('finds the heads that end with a text through their reversed mailbox as the database reverses it, for any text', async () => {
    const heads = fc.sample(
      fc
        .tuple(
          fc.string({ unit: 'grapheme', maxLength: 8 }),
          fc.string({ unit: 'grapheme', maxLength: 10 }),
          fc.nat(),
          fc.boolean(),
        )
        .map(([name, mailbox, cut, random]) => {
          const head = `${name}\u001f${mailbox}@`;
          // Most ends are the head's own (its mailbox's last characters), some any text.
          const ends = [...`${mailbox}@`];
          const end = random ? `${[...name].slice(-2).join('')}@` : ends.slice(cut % ends.length).join('');
          return { head, end };
        }),
      { numRuns: 300, seed: 20261126 },
    );
    heads.push(
      { head: 'zoë\u001fzoe_1%\\@', end: '%\\@' },
      { head: 'zoë\u001fzoe_1%\\@', end: '_1%\\@' },
      { head: 'zoë\u001fzoex1%\\@', end: '_1%\\@' },
      { head: '👩🏽‍💻\u001f👩🏽‍💻.1@', end: '💻.1@' },
    );
    for (const { head, end } of heads) {
      if (head.includes('\u0000') || end.includes('\u001f')) continue;
      const { rows } = await sql<{ reversed: boolean; ends: boolean }>`
        select search_mailbox_end(${`${head}ends.example`}) collate "C" like ${mailboxEndPattern(end)} as reversed,
               ${head}::text like ${`%${escapeLike(end)}`} as ends`.execute(db);
      expect(rows[0]?.reversed, JSON.stringify({ head, end })).toBe(rows[0]?.ends);
    }
  });

  it('keeps the grams of the seeded organisations exact, bulk-loaded or added row by row', async () => {
    expect(await gramMismatches(db)).toEqual([]);
    expect(await spanMismatches(db)).toEqual([]);
    const pending = await db.selectFrom('user_search_grams_pending').selectAll().execute();
    expect(pending).toEqual([]);
  });

  it('answers 1, 2 and 3 character searches with and without filters with the counted total', async () => {
    for (const search of [
      'a',
      'n',
      'AN',
      'nn',
      'ann',
      'Ë',
      'ë 1',
      '%',
      '_',
      '1%',
      '山',
      '山田',
      '👩',
      '🏽‍',
      '@',
      'zz',
    ]) {
      const q = encodeURIComponent(search);
      expect(await total(ORG, `?filter%5Bquery%5D=${q}`), search).toBe(await counted(ORG, search));
      expect(await total(ORG, `?filter%5Bquery%5D=${q}&filter%5Bstatus%5D=active`), search).toBe(
        await counted(ORG, search, 'active'),
      );
      expect(await total(ORG, `?filter%5Bquery%5D=${q}&filter%5Bis_system_admin%5D=true`), search).toBe(
        await counted(ORG, search, undefined, true),
      );
    }
    expect(await total(ORG, '?filter%5Bquery%5D=a')).toBe(6);
  });

  it('reads the total of a short search from the kept grams, not from the rows', async () => {
    // Counting the rows would give the same number: a kept count made wrong on purpose shows
    // which of the two answered.
    const before = await total(ORG, '?filter%5Bquery%5D=nn');
    await sql`update user_search_grams set n = n + 1000 where org_id = ${ORG} and gram = 'nn' and status = 'active'`.execute(
      db,
    );
    try {
      expect(await total(ORG, '?filter%5Bquery%5D=nn')).toBe(before + 1000);
      expect(await total(ORG, '?filter%5Bquery%5D=nnx')).toBe(0);
    } finally {
      await sql`update user_search_grams set n = n - 1000 where org_id = ${ORG} and gram = 'nn' and status = 'active'`.execute(
        db,
      );
    }
  });

  it('keeps the counts exact through inserts, renames, status and type changes, moves and deletes', async () => {
    const other = uuidv7();
    await db.insertInto('organizations').values({ id: other, name: 'Other', slug: 'other-grams' }).execute();
    const extra = [user(ORG, 'Hanna Ek', 'hanna@grams.example'), user(ORG, 'Otto', 'otto@grams.example', 'pending')];
    await insertUsers(db, extra);
    expect(await total(ORG, '?filter%5Bquery%5D=nn')).toBe(await counted(ORG, 'nn'));
    const hanna = extra[0]?.id ?? '';
    const rename = (name: string) => ({
      name,
      sort_name: sortName(name),
      search_text: searchText(name, 'h@grams.example'),
    });
    await db
      .updateTable('users')
      .set(rename('Hannah Ekström'))
      .where('org_id', '=', ORG)
      .where('id', '=', hanna)
      .execute();
    await db.updateTable('users').set({ first_name: 'Hannah' }).where('org_id', '=', ORG).execute();
    await db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('org_id', '=', ORG)
      .where('name', 'like', 'A%')
      .execute();
    await db
      .updateTable('users')
      .set({ is_system_admin: true })
      .where('org_id', '=', ORG)
      .where('id', '=', hanna)
      .execute();
    await db
      .updateTable('users')
      .set({ org_id: other })
      .where('id', '=', extra[1]?.id ?? '')
      .execute();
    await db.deleteFrom('users').where('org_id', '=', ORG).where('name', '=', 'Zoë 100%').execute();
    expect(await gramMismatches(db)).toEqual([]);
    // Spans only widen: the renamed, moved and deleted users leave theirs as wide as they were.
    expect(await spanMismatches(db)).toEqual([]);
    for (const search of ['h', 'ö', 'nn', 'ann', 'otto', 'ot', '%']) {
      const q = encodeURIComponent(search);
      expect(await total(ORG, `?filter%5Bquery%5D=${q}`), search).toBe(await counted(ORG, search));
      expect(await total(ORG, `?filter%5Bquery%5D=${q}&filter%5Bstatus%5D=disabled`), search).toBe(
        await counted(ORG, search, 'disabled'),
      );
    }
    expect(await total(ORG, '?filter%5Bquery%5D=ot')).toBe(0);
  });

  it('totals and lists searches of four or more characters exactly, in names, mailboxes, domains and across the @', async () => {
    const orgId = uuidv7();
    await db.insertInto('organizations').values({ id: orgId, name: 'Domains', slug: 'domains' }).execute();
    const statuses: UserStatus[] = ['active', 'pending', 'inactive', 'disabled'];
    const domains = [
      'acme.example',
      'acme.example',
      'acme.example',
      'sub.acme.example',
      'acme-partners.example',
      'x.org',
    ];
    const rows = Array.from({ length: 60 }, (_, n) =>
      user(
        orgId,
        ['Anna Lind', 'Bo Example', 'Carl @ Home', 'Dana Acme', '山田 太郎'][n % 5] ?? '',
        `${['anna', 'bo.e', 'carl', 'dana', 'user'][n % 5]}.${n}@${domains[n % domains.length]}`,
        statuses[n % 4],
        n % 7 === 0,
      ),
    );
    rows.push(user(orgId, 'Eve Nodomain', 'eve-without-at'), user(orgId, 'Fay Trailing', 'fay@'));
    // A name that holds the letters the trigram index reads a full stop as (migration 0015).
    rows.push(user(orgId, 'Gil Marqj4', 'gil.m@x.org'));
    // A mailbox that holds what LIKE reads as wildcards and escapes, found by how it ends (0017).
    rows.push(user(orgId, 'Hal Percent', 'h_l%\\1@x.org'), user(orgId, 'Ida Under', 'hxlz\\1@x.org'));
    await insertUsers(db, rows);
    const own = await signedInAdminOf(db, server.baseUrl, { id: orgId, slug: 'domains', name: 'Domains' });
    const list = async (query: string) => {
      const response = await fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query}`, {
        headers: { cookie: own.header() },
      });
      expect(response.status).toBe(200);
      return userListDocumentSchema.parse(await response.json());
    };
    const expected = async (search: string, status?: string) => {
      const result = await sql<{ id: string }>`
        select id from users
        where org_id = ${orgId} and search_text like ${`%${escapeLike(search.toLowerCase())}%`}
          and (${status ?? null}::text is null or status = ${status ?? null})
        order by sort_name, id`.execute(db);
      return result.rows.map((row) => row.id);
    };
    const check = async (search: string) => {
      for (const status of [undefined, 'pending']) {
        const ids = await expected(search, status);
        const filter = `filter%5Bquery%5D=${encodeURIComponent(search)}${status ? `&filter%5Bstatus%5D=${status}` : ''}`;
        // Both a small page (the walk in order) and a large one (the search's indexes).
        for (const size of [5, 100]) {
          const document = await list(`?${filter}&sort=name&page%5Bsize%5D=${size}`);
          expect(document.meta.total_count, `${search} ${status} ${size}`).toBe(ids.length);
          expect(
            document.data.map((resource) => resource.id),
            `${search} ${status} ${size}`,
          ).toEqual(ids.slice(0, size));
        }
      }
    };
    for (const search of [
      'acme',
      'acme.example',
      '.example',
      'exam',
      'partners',
      '@acme',
      '@acme.ex',
      '@sub',
      '@x.org',
      '.12@acme',
      'anna.0@acme.example',
      'a.30@',
      '@ home',
      'carl @',
      'nodomain',
      'without-at',
      'fay@',
      '山田 太郎',
      'user.',
      'zzzz',
      // Words shorter than three letters, found through the index of every character.
      'a.1',
      'na l',
      'a.30',
      'rl @ h',
      'r.4',
      'rqj4',
      'l m',
      'a l',
      // Across the @: mailboxes that end so (the index of mailbox ends, migration 0017).
      '0@acme',
      '5@sub.a',
      '12@sub',
      '1@x.o',
      '%\\1@x',
      '_l%\\1@x.org',
      'l%\\1@x',
      '.1@acme-',
      'y.3@acme.ex',
      'e.1@a',
    ]) {
      await check(search);
    }
    // Random substrings of the users' own search texts, four characters or longer.
    const texts = rows.map((row) => row.search_text);
    const samples = fc.sample(
      fc
        .tuple(fc.constantFrom(...texts), fc.nat(), fc.integer({ min: 4, max: 14 }))
        .map(([text, from, length]) => text.slice(from % text.length, (from % text.length) + length))
        .filter((search) => search.length >= 4 && !search.includes('\u001f')),
      { numRuns: 40, seed: 20261122 },
    );
    for (const search of samples) await check(search);
  }, 60_000);

  it('looks for a search in the names and mailboxes through the trigram index when only a domain all users share makes it seem dense, not by walking', async () => {
    const orgId = uuidv7();
    await db.insertInto('organizations').values({ id: orgId, name: 'Bench', slug: 'bench-1000000' }).execute();
    const rows = Array.from({ length: 40 }, (_, n) => user(orgId, `Person ${n}`, `person.${n}@bench-1000000.example`));
    rows.push(user(orgId, 'Agent 1000.5', 'agent@bench-1000000.example'));
    await insertUsers(db, rows);
    // Planned as a large organisation's searches are (walkUpTo), and walked from a quarter up.
    const users = createUsersRepository(db, { walkUpTo: 1, walkDenseFrom: 0.25 });
    const lists = async () =>
      (await db.selectFrom('user_search_lists').select('list_key').where('org_id', '=', orgId).execute()).map(
        (row) => JSON.parse(row.list_key)[3],
      );
    // Every user holds "100", "000" and "00." in the domain, which does not hold "1000.": one name
    // does. Counted through the trigram index, its count builds its list (a walk builds none).
    const found = await users.listUsers(orgId, { pageSize: 25, pageNumber: 1, search: '1000.' });
    expect(found.total).toBe(1);
    expect(found.users.map((row) => row.name)).toEqual(['Agent 1000.5']);
    expect(await lists()).toEqual(['1000.']);
    // "rson " is in every head but one: dense, and walked.
    const dense = await users.listUsers(orgId, { pageSize: 25, pageNumber: 1, search: 'rson ' });
    expect(dense.total).toBe(40);
    expect(await lists()).toEqual(['1000.']);
  });

  it('puts a search across the @ to the index of mailbox ends, its range in the index condition', async () => {
    const orgId = uuidv7();
    await db.insertInto('organizations').values({ id: orgId, name: 'Ends', slug: 'ends' }).execute();
    await insertUsers(
      db,
      Array.from({ length: 3000 }, (_, n) => user(orgId, `Person ${n}`, `person.${n}@ends.example`)),
    );
    await sql`vacuum analyze users`.execute(db);
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', orgId)
      .where(acrossTheAt('52@ends') ?? sql<boolean>`false`)
      .explain();
    const plan = rows.map((row) => String(row['QUERY PLAN'])).join('\n');
    // The reversed mailbox's range, not only the organisation: the query's expression is the index's.
    expect(plan).toMatch(
      /users_p\d\d_mailbox_end_idx[^\n]*\n\s*(Recheck|Index) Cond: \(\(org_id = [^\n]*>= '@25'::text\)/,
    );
    // Counted per status and user type, as a search is, it can be read from the index alone
    // (migration 0018): the index holds every column it reads. (Which scan the planner takes for a
    // few hundred rows is its own choice: a bitmap is as cheap there. At 1,000,000 users it takes this.)
    const counted = await db.transaction().execute(async (tx) => {
      await sql`set local enable_bitmapscan = off`.execute(tx);
      await sql`set local enable_seqscan = off`.execute(tx);
      return tx
        .selectFrom('users')
        .select(['status', 'is_system_admin', sql<string>`count(*)`.as('n')])
        .where('org_id', '=', orgId)
        .where(acrossTheAt('2@ends') ?? sql<boolean>`false`)
        .groupBy(['status', 'is_system_admin'])
        .explain();
    });
    expect(counted.map((row) => String(row['QUERY PLAN'])).join('\n')).toMatch(
      /Index Only Scan using users_p\d\d_mailbox_end_idx/,
    );
  });

  it('reads the users of matching domains from the kept domain counts, not from the rows', async () => {
    const key = '\u001fgrams.example';
    // Counted, not asked of the API: the API caches a longer search's total per data version.
    const before = (await counted(ORG, 'grams.ex')) ?? 0;
    const counts = await db
      .selectFrom('user_search_grams')
      .select(['status', 'is_system_admin'])
      .where('org_id', '=', ORG)
      .where('gram', '=', key)
      .execute();
    expect(counts.length).toBeGreaterThan(0);
    const [first] = counts;
    const bump = (by: number) =>
      db
        .updateTable('user_search_grams')
        .set({ n: sql`n + ${by}` })
        .where('org_id', '=', ORG)
        .where('gram', '=', key)
        .where('status', '=', first?.status ?? '')
        .where('is_system_admin', '=', first?.is_system_admin ?? false)
        .execute();
    await bump(1000);
    try {
      expect(await total(ORG, '?filter%5Bquery%5D=grams.ex')).toBe(before + 1000);
      expect(await total(ORG, '?filter%5Bquery%5D=%40gram')).toBe(before + 1000);
    } finally {
      await bump(-1000);
    }
  });

  it('counts the rows of an organisation whose bulk load never finished, so its totals stay exact', async () => {
    const killed = uuidv7();
    await db.insertInto('organizations').values({ id: killed, name: 'Killed', slug: 'killed-grams' }).execute();
    await db.insertInto('user_search_grams_pending').values({ org_id: killed }).execute();
    await insertUsers(db, [user(killed, 'Anna Pending', 'ap@k.example'), user(killed, 'Bo', 'bo@k.example')]);
    const kept = await db.selectFrom('user_search_grams').select('gram').where('org_id', '=', killed).execute();
    expect(kept).toEqual([]);
    const own = await signedInAdminOf(db, server.baseUrl, { id: killed, slug: 'killed-grams', name: 'Killed' });
    const response = await fetch(`${server.baseUrl}/apis/accounts/api/v3/orgs/${killed}/users?filter%5Bquery%5D=a`, {
      headers: { cookie: own.header() },
    });
    const document: UserListDocument = userListDocumentSchema.parse(await response.json());
    expect(document.meta.total_count).toBe(await counted(killed, 'a'));
    expect(document.meta.total_count).toBe(3);
  });

  it('bulk-loads an organisation with its grams written at the end and none pending', async () => {
    const orgId = await seedOrganization(db, {
      name: 'Bulk',
      slug: 'bulk-grams',
      users: 1200,
      batchSize: 500,
      seed: 5,
    });
    const pending = await db.selectFrom('user_search_grams_pending').selectAll().where('org_id', '=', orgId).execute();
    expect(pending).toEqual([]);
    expect(await gramMismatches(db)).toEqual([]);
    expect(await spanMismatches(db)).toEqual([]);
    const kept = await db
      .selectFrom('user_search_grams')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(kept.n).toBeGreaterThan(100);
  });

  it('adds up the grams of the users already there when the migration runs on an existing database', async () => {
    const pglite = await PGlite.create('memory://', { extensions: { pg_trgm } });
    const old = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    try {
      const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0004-sign-in-attempts')).error).toBeUndefined();
      // More users than one chunk of the backfill's keyset walk (20,000), in two organisations: the
      // second organisation's users are added first, so their ids sort before the first's, and a
      // walk that compared ids alone would skip them.
      const orgs = [uuidv7(), uuidv7()];
      for (const [index, orgId] of [...orgs.entries()].reverse()) {
        await old
          .insertInto('organizations')
          .values({ id: orgId, name: `Old ${index}`, slug: `old-${index}` })
          .execute();
        await insertUsers(
          old,
          Array.from({ length: index === 0 ? 20_500 : 301 }, (_, n) =>
            user(orgId, `Person ${n} Ölund`, `p${n}@old${index}.example`, n % 3 ? 'active' : 'pending', n % 7 === 0),
          ),
        );
      }
      await migrate(old);
      expect(await gramMismatches(old)).toEqual([]);
      expect(await spanMismatches(old, { exact: true })).toEqual([]);
      const kept = await sql<{ n: string }>`
        select sum(n) as n from user_search_grams where org_id = ${orgs[1]} and gram = 'ö'`.execute(old);
      expect(Number(kept.rows[0]?.n)).toBe(301);
    } finally {
      await old.destroy();
    }
  }, 120_000);
});
