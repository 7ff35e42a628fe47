import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Exact totals of searches that most users match, without counting them. Such a search is nearly
 * always part of an e-mail domain the organisation's users share ("exam", "acme.example"): the
 * trigram index handed every user back to be checked (0.3–0.9 s for the first request at 1,000,000
 * users). A search text is its head (name, separator, e-mail up to its last `@`) followed by its
 * domain, which holds no `@`; a search without `@` thus matches a user exactly when it is in the head
 * or in the domain, and one starting with its only `@` when the domain starts with the rest.
 *
 * - `user_search_grams` also keeps, per organisation, domain, status and user type, how many users
 *   have the domain, under the key `chr(31) || domain` (no gram holds chr(31)): the same triggers,
 *   bulk loads and pending organisations as the grams (0005), through `search_grams()`.
 * - The trigram index covers the head only (`users.search_head`), so the users a search finds there
 *   are the few whose name or mailbox holds it; users matched by their domain are found by the
 *   domain's own index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    -- First, so that adding the column does not rebuild it.
    drop index users_search_trgm_idx;

    create function search_domain(search_text text) returns text
      language sql immutable parallel safe as $$
        select case when strpos(search_text, '@') > 0 then split_part(search_text, '@', -1) else '' end
      $$;

    -- A stored column rather than an index expression: the trigram index's recheck of every
    -- candidate row then reads it instead of computing it (1 µs a row: a sparse page 2× slower).
    -- Built-in functions only: PostgreSQL 17 builds indexes with a search_path of pg_catalog.
    alter table users add column search_head text generated always as (
      case when strpos(search_text, '@') > 0
        then left(search_text, length(search_text) - length(split_part(search_text, '@', -1)))
        else search_text end
    ) stored;

    create or replace function search_grams(search_text text) returns setof text
      language sql immutable parallel safe as $$
        select distinct substr(search_text, i, k)
        from generate_series(1, length(search_text)) i, generate_series(1, 3) k
        where i + k - 1 <= length(search_text) and strpos(substr(search_text, i, k), chr(31)) = 0
        union
        select chr(31) || search_domain(search_text) where search_domain(search_text) <> ''
      $$;

    -- Recomputed, not added: a data folder that ran 0005 with this release's seeder code may
    -- already hold domain keys.
    delete from user_search_grams where gram >= chr(31) and gram < chr(32);
    insert into user_search_grams (org_id, gram, status, is_system_admin, n)
      select org_id, chr(31) || search_domain(search_text), status, is_system_admin, count(*)
      from users
      where search_domain(search_text) <> ''
        and org_id not in (select org_id from user_search_grams_pending)
      group by 1, 2, 3, 4;

    create index users_search_head_trgm_idx on users using gin (search_head gin_trgm_ops);
    create index users_search_domain_idx on users (org_id, search_domain(search_text));
    -- The runner then vacuums and analyses the rewritten table (vacuumUsersAfter): PGlite runs no
    -- autovacuum, and without statistics of the new column and expression the planner guesses how
    -- many users a search finds in the heads (a page 3× slower).
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index users_search_domain_idx;
    drop index users_search_head_trgm_idx;
    create index users_search_trgm_idx on users using gin (search_text gin_trgm_ops);
    delete from user_search_grams where gram >= chr(31) and gram < chr(32);
    create or replace function search_grams(search_text text) returns setof text
      language sql immutable parallel safe as $$
        select distinct substr(search_text, i, k)
        from generate_series(1, length(search_text)) i, generate_series(1, 3) k
        where i + k - 1 <= length(search_text) and strpos(substr(search_text, i, k), chr(31)) = 0
      $$;
    alter table users drop column search_head;
    drop function search_domain(text);
  `,
  );
}
