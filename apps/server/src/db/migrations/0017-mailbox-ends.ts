import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * An index of how mailboxes end. A search with an `@` inside ("52@bench", "7@ben") finds a user
 * whose mailbox ends with its part up to that `@` and whose domain starts with the rest. The trigram
 * index could narrow only the first part, and "52@" gives the trigrams "52q" and "2qw", which a
 * hundredth and a tenth of every organisation hold: such searches were counted by walking the whole
 * organisation (0.1–0.25 s at 1,000,000 users on PostgreSQL), the most frequent of the slow first
 * requests. Reversed, a mailbox's end is its start, a range of this index led by `org_id`: the
 * users whose mailbox ends with "52@" are those whose reversed mailbox starts with "@25". The domain
 * beside it is tested in the index. Each match's row is still read (PostgreSQL answers no index-only
 * scan from an expression index), so an end that a tenth of the users share ("7@ben") costs about
 * what the walk did; the status and user type it includes serve no scan (docs/decisions.md).
 *
 * On a large PostgreSQL table, building the index takes some seconds per million users and blocks
 * writes to users meanwhile: plan it as downtime.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- The mailbox is the head's part after the separator between name and mailbox (U+001F), its
    -- last "@" included. Kept in step with mailboxEndPattern() in apps/server/src/lib/user-text.ts.
    create function search_mailbox_reversed(head text) returns text
      language sql immutable parallel safe as $$
        select reverse(split_part(head, chr(31), -1))
      $$;

    create index users_mailbox_end_idx on users
      (org_id, (search_mailbox_reversed(search_head) collate "C"), search_domain(search_text))
      include (status, is_system_admin);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index users_mailbox_end_idx;
    drop function search_mailbox_reversed(text);
    `,
  );
}
