import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * The search index holds, beside each user's pairs, a key for each rare filter value the user has, so
 * that a search with rare filters finds in one index the few users holding both (a list with a search
 * and "never signed in" read every such user before). Kept in step with `filterKeys()` in user-conditions.ts.
 * The index of last sign-ins leaves out those who never signed in, so that the planner does not add it to such a search.
 */
export const STATEMENTS = `
-- U+0001 and a word: no search's pair can be one, as a search with a control character is refused. The pairs are
-- search_grams()'s, written out: an index's expression is built under a search path that may not find that function.
create or replace function search_keys(t text, status text, is_system_admin boolean, is_external boolean, never boolean)
returns text[] language sql immutable parallel safe as $$
  select string_to_array(
      regexp_replace(t, '(..)', '\\1' || chr(30), 'g') || chr(30) || regexp_replace(substr(t, 2), '(..)', '\\1' || chr(30), 'g'),
      chr(30))
    || string_to_array(regexp_replace(t, '[\\x01-\\x7f]+', '', 'g'), null)
    || case when status <> 'active' then array[chr(1) || status] else '{}'::text[] end
    || case when is_system_admin then array[chr(1) || 'a'] else '{}'::text[] end
    || case when is_external then array[chr(1) || 'x'] else '{}'::text[] end
    || case when never then array[chr(1) || 'n'] else '{}'::text[] end
$$;
-- Costly as search_grams() is: a walk tests it last, on the few users left.
alter function search_keys(text, text, boolean, boolean, boolean) cost 1000;
create index if not exists users_search_keys_idx on users
  using gin (search_keys(search_text, status, is_system_admin, is_external, last_sign_in_at is null));
drop index if exists users_search_grams_idx;
-- Never signed in is read from its own indexes and kept counts: here it only tempted plans to add a long range to the keys'.
drop index if exists users_last_sign_in_idx;
create index users_last_sign_in_idx on users (org_id, last_sign_in_at) include (status, is_system_admin, is_external)
  where last_sign_in_at is not null;
-- The new index's statistics: which keys are rare (search-gram-stats.ts), before the first search.
analyze users;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
