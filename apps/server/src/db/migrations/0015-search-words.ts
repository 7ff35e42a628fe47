import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * A trigram index of every character of the heads, not only of their words. pg_trgm takes its
 * trigrams from runs of letters and digits, so a search whose words are shorter than three letters
 * ("r.41", "n le", "eo pé") gave the index nothing to narrow and was counted by walking the whole
 * organisation (0.25–0.5 s at 1,000,000 users on PostgreSQL), and one ending in a space ("user ")
 * was narrowed only by its word, which half the organisation holds (0.6–0.8 s). `search_words` turns
 * each punctuation mark that names and mailboxes hold into a pair of ASCII letters that no word
 * holds (a `q` and a letter other than `u`), word characters in every locale, pg_trgm's C locale
 * too: so a head is one run, and every three characters of a search in a row give trigrams the
 * index holds. "r.41" is "rqj41", narrowed by "rqj", "qj4" and "j41" to the users who hold it, and
 * "user " to the few whose "user" is followed by a space. The separator between name and mailbox
 * (U+001F) stays a break between words. A search is put to it as
 * `search_words(search_head) like search_words(pattern)` and `search_head like pattern`: the second
 * keeps the answer exact when a head holds those letters.
 *
 * On a large PostgreSQL table, building the index takes a minute or so (25 s for 2,000,000 users)
 * and blocks writes to users meanwhile: plan it as downtime.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- Kept in step with searchWords() in apps/server/src/lib/user-text.ts (a test compares them).
    create function search_words(head text) returns text
      language sql immutable parallel safe as $$
        select replace(replace(replace(replace(replace(replace(replace(replace(head,
          ' ', 'qx'), '.', 'qj'), '@', 'qw'), '-', 'qz'), '_', 'qk'), '''', 'qv'), '+', 'qf'), ',', 'qg')
      $$;

    create index users_search_words_trgm_idx on users using gin (search_words(search_head) gin_trgm_ops);
    drop index users_search_head_trgm_idx;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create index users_search_head_trgm_idx on users using gin (search_head gin_trgm_ops);
    drop index users_search_words_trgm_idx;
    drop function search_words(text);
    `,
  );
}
