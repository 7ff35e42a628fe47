import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/** Every part's trigram index of the heads made again from `search_words` as it now is. */
export const REINDEX_PARTS = `
  do $$
  declare part regclass;
  begin
    for part in
      select inhrelid::regclass from pg_inherits
      where inhparent = 'users_search_words_trgm_idx'::regclass order by 1
    loop
      execute format('reindex index %s', part);
    end loop;
  end $$;`;

/**
 * `search_words` (migration 0015) turns the Devanagari virama (U+094D, the sign that joins two
 * consonants: "अनन्या", "शर्मा") into a pair of ASCII letters too. pg_trgm takes trigrams from runs
 * of word characters, and the virama is none in any locale (it is not a letter by Unicode's
 * Alphabetic property, which glibc's and PostgreSQL's own classes follow), so it broke such a name
 * into runs of one or two letters that gave the index no trigram to narrow a search by: "नन्य"
 * was counted and paged by walking every user of the organisation (85–125 ms at 1,000,000 users on
 * PostgreSQL). The vowel signs are Alphabetic, word characters already.
 *
 * One `replace` more costs each candidate a trigram search rechecks about 0.06 µs (measured on
 * PostgreSQL over 1,000,000 heads; the 31 non-Alphabetic marks of the scripts of South and
 * South-East Asia in one `translate` cost 3.3 µs, 55 times as much, for scripts no name of the
 * seeded data is written in). The trigram index is made again: about 20 s for 1,000,000 users.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- Kept in step with searchWords() in apps/server/src/lib/user-text.ts (a test compares them).
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create or replace function search_words(head text) returns text
      language sql immutable parallel safe as $$
        select replace(replace(replace(replace(replace(replace(replace(replace(head,
          ' ', 'qx'), '.', 'qj'), '@', 'qw'), '-', 'qz'), '_', 'qk'), '''', 'qv'), '+', 'qf'), ',', 'qg')
      $$;
    ${REINDEX_PARTS}
    `,
  );
}
