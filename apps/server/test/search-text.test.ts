import { USER_STATUSES, type UserListQuery } from '@users-admin/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { searchGrams, searchText, textGrams } from '../src/lib/user-text.ts';
import { filterKeys } from '../src/repositories/user-conditions.ts';
import { createScratchDatabase } from './support/test-server.ts';

/** The page server builds a search's index conditions from the same text functions as the database's indexes. */
describe("the search text's functions, in the page server and in the database", () => {
  let database: DatabaseHandle;
  let scratch: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase(process.env.TEST_DATABASE_URL) : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database.close();
    await scratch?.drop();
  });

  // The search index's pairs (search_keys(), without a filter's key) are those of search_grams(), which the initials keep.
  const inDatabase = async (text: string) => {
    const { rows } = await sql<{ grams: string[]; keys: string[] }>`
      select search_grams(${text}) as grams, search_keys(${text}, 'active', false, false, false) as keys`.execute(
      database.db,
    );
    expect(rows[0]?.keys).toEqual(rows[0]?.grams);
    return rows[0]?.grams ?? [];
  };

  // PostgreSQL's text holds any character but NUL.
  const texts = fc
    .oneof(
      fc.string({ unit: fc.constantFrom(' ', '.', '@', '-', '_', "'", '+', ',', 'q', 'a', '0', 'é', '王', '\u001f') }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.tuple(fc.string({ maxLength: 20 }), fc.emailAddress()).map(([name, email]) => searchText(name, email)),
    )
    .filter((text) => !text.includes('\u0000'));

  it("hold every pair of adjacent characters and every character outside ASCII: every search's grams", async () => {
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const grams = new Set(await inDatabase(text));
        const characters = [...text];
        for (let start = 0; start < characters.length; start++) {
          for (const length of [1, 2, 3, 5]) {
            const part = characters.slice(start, start + length).join('');
            for (const gram of searchGrams(part)) expect(grams, `${JSON.stringify(text)} ${part}`).toContain(gram);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hold the same pairs and characters for a whole text in the page server (a bulk load) and in the database', async () => {
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        // The database's array also holds an odd last character and empty strings, which no search asks for.
        const asked = (await inDatabase(text)).filter((gram) => [...gram].length === 2 || gram > '\u007f');
        expect([...textGrams(text)].sort()).toEqual([...new Set(asked)].sort());
      }),
      { numRuns: 300 },
    );
  });

  it("hold beside a user's pairs the keys of the filters' rare values the user has, and no key of another value", async () => {
    const user = fc.record({
      status: fc.constantFrom(...USER_STATUSES),
      isSystemAdmin: fc.boolean(),
      isExternal: fc.boolean(),
      never: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(user, async ({ status, isSystemAdmin, isExternal, never }) => {
        const { rows } = await sql<{ keys: string[] }>`
          select search_keys('ab', ${status}, ${isSystemAdmin}, ${isExternal}, ${never}) as keys`.execute(database.db);
        const held = (rows[0]?.keys ?? []).filter((key) => key.startsWith('\u0001'));
        const asked = (query: Partial<UserListQuery>) => filterKeys({ pageSize: 1, pageNumber: 1, ...query });
        const values = { status, isSystemAdmin, isExternal, lastSignIn: never ? ('never' as const) : ('30d' as const) };
        expect(held.sort()).toEqual(asked(values).sort());
        // A filter for a value the user does not have asks for a key the user does not hold.
        const other = USER_STATUSES.find((value) => value !== status && value !== 'active') ?? 'pending';
        for (const key of asked({ status: other, isSystemAdmin: !isSystemAdmin, isExternal: !isExternal })) {
          expect(held).not.toContain(key);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("take a search's pairs, or its one character outside ASCII, and nothing for one ASCII character", () => {
    expect(searchGrams('smith')).toEqual(['sm', 'mi', 'it', 'th']);
    expect(searchGrams('aaa')).toEqual(['aa']);
    expect(searchGrams('王')).toEqual(['王']);
    expect(searchGrams('a')).toEqual([]);
    expect(searchGrams('😀x')).toEqual(['😀x']);
  });
});
