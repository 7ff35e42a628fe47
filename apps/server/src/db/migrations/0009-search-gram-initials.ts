import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Which first characters of `sort_name` the holders of each pair of `search_grams()` have, per
 * organisation: where in the name order a search's matches can lie, so that a walk by name starts
 * at its first possible match instead of passing every name before it (`search-gram-initials.ts`).
 * Rows are added by every write and never taken away: a stale one only starts a walk sooner. A bulk
 * load marks its organisation pending and writes them at its end (`gram-initials-load.ts`).
 */
export const STATEMENTS = `
create table if not exists search_gram_initials (
  org_id uuid not null,
  gram text collate "C" not null,
  initial text collate "C" not null,
  primary key (org_id, gram, initial)
);
-- Organisations whose initials a bulk load writes at its end: the triggers skip their rows, their walks are unbounded.
create table if not exists search_gram_initials_pending (
  org_id uuid primary key
);

-- The pairs and initial of each new row; after an update, of those whose text or name changed (each branch is
-- planned only when it runs: an insert's trigger has no old_rows).
create or replace function search_gram_initials_add() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into search_gram_initials (org_id, gram, initial)
    select distinct n.org_id, g.gram, left(n.sort_name, 1)
    from new_rows n cross join lateral unnest(search_grams(n.search_text)) as g(gram)
    where not exists (select from search_gram_initials_pending p where p.org_id = n.org_id)
    order by 1, 2, 3
    on conflict do nothing;
  else
    insert into search_gram_initials (org_id, gram, initial)
    select distinct n.org_id, g.gram, left(n.sort_name, 1)
    from new_rows n join old_rows o on o.org_id = n.org_id and o.id = n.id
      cross join lateral unnest(search_grams(n.search_text)) as g(gram)
    where (o.search_text <> n.search_text or o.sort_name <> n.sort_name)
      and not exists (select from search_gram_initials_pending p where p.org_id = n.org_id)
    order by 1, 2, 3
    on conflict do nothing;
  end if;
  return null;
end $$;

create or replace function search_gram_initials_truncate() returns trigger language plpgsql as $$
begin
  delete from search_gram_initials;
  delete from search_gram_initials_pending;
  return null;
end $$;

create or replace trigger search_gram_initials_insert after insert on users
  referencing new table as new_rows for each statement execute function search_gram_initials_add();
create or replace trigger search_gram_initials_update after update on users
  referencing old table as old_rows new table as new_rows for each statement execute function search_gram_initials_add();
create or replace trigger search_gram_initials_truncate after truncate on users
  for each statement execute function search_gram_initials_truncate();

insert into search_gram_initials (org_id, gram, initial)
select distinct u.org_id, g.gram, left(u.sort_name, 1)
from users u cross join lateral unnest(search_grams(u.search_text)) as g(gram)
on conflict do nothing;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
