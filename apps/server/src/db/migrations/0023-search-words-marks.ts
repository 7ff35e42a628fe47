import type { Kysely } from 'kysely';
import { REINDEX_PARTS } from './0021-search-words-virama.ts';
import { runStatements } from './run-statements.ts';

/** The marks that are not Alphabetic in Unicode but sit inside words (`WORD_MARKS` in lib/user-text.ts). */
const MARKS = String.raw`[\u0300-\u0344\u0346-\u0362\u093c\u0951-\u0954\u09bc\u09cd\u09fe\u0a3c\u0a4d\u0abc\u0acd\u0afd-\u0aff\u0b3c\u0b4d\u0b55\u0bcd\u0c3c\u0c4d\u0cbc\u0ccd\u0d3b-\u0d3c\u0d4d\u0dca\u0e47-\u0e4c\u0e4e\u0eba\u0ec8-\u0ecc\u0ece\u0f18-\u0f19\u0f35\u0f37\u0f39\u0f3e-\u0f3f\u0f84\u0f86-\u0f87\u0fc6\u1037\u1039-\u103a\u135d-\u135f\u1714-\u1715\u1734\u17b4-\u17b5\u17c9-\u17d3\u17dd\u180b-\u180d\u180f\u1939-\u193b\u1a60\u1a75-\u1a7c\u1a7f\u1ab0-\u1abe\u1ac1-\u1acb\u1acf-\u1add\u1ae0-\u1aeb\u1b34\u1b44\u1b6b-\u1b73\u1baa-\u1bab\u1be6\u1bf2-\u1bf3\u1c37\u1cd0-\u1cd2\u1cd4-\u1ce8\u1ced\u1cf4\u1cf7-\u1cf9\u200c-\u200d]`;

/**
 * `search_words` (migrations 0015 and 0021) turns into `qy` every mark that is not Alphabetic in
 * Unicode, so no word character of pg_trgm in any locale, of the combining diacritics (a name typed
 * decomposed), of the scripts of U+0900–U+1CFF (the viramas of Bengali, Gurmukhi, Gujarati, Oriya,
 * Tamil, Telugu, Kannada, Malayalam and Sinhala, the nuktas, Thai and Lao tone marks, the Myanmar
 * asat, the Khmer coeng), and the zero-width (non-)joiners. They broke a name into runs of one or
 * two letters that gave the index no trigram to narrow a search by ("নন্য", "ก่อน"), so such a
 * search was counted by walking every user of the organisation, as the Devanagari virama's were
 * before migration 0021.
 *
 * The marks are looked for with one regular expression before they are replaced, which costs each
 * head about 0.2 µs (measured on PostgreSQL over 50,000 Devanagari heads; a `replace` for each of
 * them would cost 0.04 µs each, 12 µs for all, and a `translate` 3.3 µs); the heads that hold
 * one pay about 0.3 µs more. The trigram index is made again: about 12 s for 2,000,000 users.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- Kept in step with searchWords() in apps/server/src/lib/user-text.ts (a test compares them).
    create or replace function search_words(head text) returns text
      language sql immutable parallel safe as $$
        select replace(replace(replace(replace(replace(replace(replace(replace(replace(
          case when head ~ '${MARKS}' then regexp_replace(head, '${MARKS}', 'qy', 'g') else head end,
          ' ', 'qx'), '.', 'qj'), '@', 'qw'), '-', 'qz'), '_', 'qk'), '''', 'qv'), '+', 'qf'), ',', 'qg'),
          U&'\\094D', 'qh')
      $$;
    ${REINDEX_PARTS}
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create or replace function search_words(head text) returns text
      language sql immutable parallel safe as $$
        select replace(replace(replace(replace(replace(replace(replace(replace(replace(head,
          ' ', 'qx'), '.', 'qj'), '@', 'qw'), '-', 'qz'), '_', 'qk'), '''', 'qv'), '+', 'qf'), ',', 'qg'),
          U&'\\094D', 'qh')
      $$;
    ${REINDEX_PARTS}
    `,
  );
}
