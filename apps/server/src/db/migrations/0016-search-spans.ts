import { type Kysely, sql } from 'kysely';
import { forEachUserChunk, GramTally, insertSpans } from '../search-grams.ts';
import { runStatements } from './run-statements.ts';

/**
 * Where in the order by name each short substring's users lie. A search held by users of one script
 * is bunched in that order ("ν" in Greek names, "陈" in Chinese ones, which sort after every Latin
 * name), and a page by name walked the organisation from its start, or built the search's list by
 * walking all of it, before it met them: 0.3–0.6 s at 1,000,000 users on PostgreSQL.
 *
 * `user_search_spans` keeps, per organisation and 1–3 character substring of the search texts (the
 * grams of `user_search_grams`, without the domain keys), the first and the last `sort_name` of the
 * users who hold it. Every match of a search holds each of its grams, so it lies between the latest
 * first and the earliest last of them: a walk by name starts there. Writers only widen a span (a
 * statement trigger on insert and on a change of search text or name); a deleted or renamed user
 * leaves it as wide as it was, which stays true, and `npm run recount` narrows it again. A bulk load
 * (an organisation in `user_search_grams_pending`) writes its spans at the end, from its tally.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_search_spans (
      org_id uuid not null,
      gram text collate "C" not null,
      first_sort text collate "C" not null,
      last_sort text collate "C" not null,
      primary key (org_id, gram)
    );

    -- Widens the spans of the grams of users (org_id, search_text, sort_name) given as a table.
    create function user_search_spans_widen(org_ids uuid[], search_texts text[], sort_names text[])
      returns void language sql as $$
      insert into user_search_spans (org_id, gram, first_sort, last_sort)
        select u.org_id, g.gram, min(u.sort_name collate "C"), max(u.sort_name collate "C")
        from unnest(org_ids, search_texts, sort_names) u(org_id, search_text, sort_name)
        cross join lateral search_grams(u.search_text) g(gram)
        where g.gram not like chr(31) || '%'
          and not exists (select 1 from user_search_grams_pending p where p.org_id = u.org_id)
        group by 1, 2
        order by 1, 2
      on conflict (org_id, gram) do update
        set first_sort = least(user_search_spans.first_sort, excluded.first_sort),
            last_sort = greatest(user_search_spans.last_sort, excluded.last_sort)
        where excluded.first_sort < user_search_spans.first_sort
           or excluded.last_sort > user_search_spans.last_sort
    $$;

    -- The users of organisations being bulk-loaded are left out before their grams are computed.
    create function users_spans_insert() returns trigger language plpgsql as $$
    begin
      perform user_search_spans_widen(array_agg(i.org_id), array_agg(i.search_text), array_agg(i.sort_name))
      from inserted i
      where not exists (select 1 from user_search_grams_pending p where p.org_id = i.org_id)
      having count(*) > 0;
      return null;
    end $$;

    create function users_spans_update() returns trigger language plpgsql as $$
    begin
      perform user_search_spans_widen(array_agg(n.org_id), array_agg(n.search_text), array_agg(n.sort_name))
      from inserted n left join deleted o on o.org_id = n.org_id and o.id = n.id
      where (o.id is null or (n.search_text, n.sort_name) is distinct from (o.search_text, o.sort_name))
        and not exists (select 1 from user_search_grams_pending p where p.org_id = n.org_id)
      having count(*) > 0;
      return null;
    end $$;

    create trigger users_spans_insert after insert on users
      referencing new table as inserted for each statement execute function users_spans_insert();
    create trigger users_spans_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_spans_update();
    `,
  );
  // The spans of the users already there, tallied here as a bulk load tallies them: the same
  // aggregate in SQL took 5.7 minutes for 2,000,000 users on PostgreSQL.
  let tally: GramTally | undefined;
  let tallied: string | undefined;
  const write = async () => {
    if (tally && tallied) await insertSpans(db, tallied, tally);
  };
  type Row = { org_id: string; id: string; search_text: string; sort_name: string };
  await forEachUserChunk<Row, unknown>(
    db,
    {
      columns: ['search_text', 'sort_name'],
      where: sql<boolean>`org_id not in (select org_id from user_search_grams_pending)`,
    },
    async (rows) => {
      for (const row of rows) {
        if (row.org_id !== tallied) {
          await write();
          tally = new GramTally();
          tallied = row.org_id;
        }
        tally?.add(row.search_text, 'active', false, row.sort_name);
      }
    },
  );
  await write();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop trigger users_spans_update on users;
    drop trigger users_spans_insert on users;
    drop function users_spans_update();
    drop function users_spans_insert();
    drop function user_search_spans_widen(uuid[], text[], text[]);
    drop table user_search_spans;
    `,
  );
}
