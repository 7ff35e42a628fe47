import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { searchText, searchWords } from '../src/lib/user-text.ts';
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

  const inDatabase = async (text: string) => {
    const { rows } = await sql<{ words: string; letters: string[] }>`
      select search_words(${text}) as words, search_letters(${text}) as letters`.execute(database.db);
    return rows[0];
  };

  // PostgreSQL's text holds any character but NUL.
  const texts = fc
    .oneof(
      fc.string({ unit: fc.constantFrom(' ', '.', '@', '-', '_', "'", '+', ',', 'q', 'a', '0', 'é', '王', '\u001f') }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.tuple(fc.string({ maxLength: 20 }), fc.emailAddress()).map(([name, email]) => searchText(name, email)),
    )
    .filter((text) => !text.includes('\u0000'));

  it('turn punctuation into the same letters, and find every character outside ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const expected = await inDatabase(text);
        expect(searchWords(text)).toBe(expected?.words);
        const outsideAscii = new Set([...text].filter((character) => character > '\u007f'));
        expect(new Set(expected?.letters), JSON.stringify(text)).toEqual(outsideAscii);
      }),
      { numRuns: 300 },
    );
  });

  it('keep every substring a substring, so that the trigram index finds every user a search matches', () => {
    fc.assert(
      fc.property(texts, fc.nat(), fc.nat(), (text, start, length) => {
        const characters = [...text];
        const from = start % (characters.length + 1);
        expect(searchWords(text)).toContain(searchWords(characters.slice(from, from + length).join('')));
      }),
    );
  });
});
