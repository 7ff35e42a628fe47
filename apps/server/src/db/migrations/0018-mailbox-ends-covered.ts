import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The index of mailbox ends (migration 0017) made to count a search across the `@` by itself.
 * PostgreSQL answers an index-only scan only when every column the query reads is in the index; it
 * does not take an indexed expression's value from the index. Keyed by expressions of `search_head`,
 * the index left each match to be read from the table: "7@ben", whose end a tenth of the mailboxes
 * share, took 0.18–0.2 s to count at 1,000,000 users on PostgreSQL. Keyed by expressions of
 * `search_text` and including it (with the status and user type that a count groups by), the same
 * count reads the index alone: 26–36 ms. The index grows from 174 to 301 MB for 2,000,000 users.
 *
 * On a large PostgreSQL table, building the index takes some seconds per million users and blocks
 * writes to users meanwhile: plan it as downtime.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- The mailbox, reversed: the head's part after the separator between name and mailbox (U+001F),
    -- its last "@" included; the head is the search text without its domain, as migration 0007's
    -- search_head (built-in functions only: an index's expressions are computed with no search_path).
    -- Kept in step with mailboxEndPattern() in apps/server/src/lib/user-text.ts.
    create function search_mailbox_end(search_text text) returns text
      language sql immutable parallel safe as $$
        select reverse(split_part(
          case when strpos(search_text, '@') > 0
            then left(search_text, length(search_text) - length(split_part(search_text, '@', -1)))
            else search_text end,
          chr(31), -1))
      $$;

    drop index users_mailbox_end_idx;
    create index users_mailbox_end_idx on users
      (org_id, (search_mailbox_end(search_text) collate "C"), search_domain(search_text))
      include (search_text, status, is_system_admin);
    drop function search_mailbox_reversed(text);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create function search_mailbox_reversed(head text) returns text
      language sql immutable parallel safe as $$
        select reverse(split_part(head, chr(31), -1))
      $$;
    drop index users_mailbox_end_idx;
    create index users_mailbox_end_idx on users
      (org_id, (search_mailbox_reversed(search_head) collate "C"), search_domain(search_text))
      include (status, is_system_admin);
    drop function search_mailbox_end(text);
    `,
  );
}
