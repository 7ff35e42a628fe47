import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

const GROUPS = [1, 2, 3, 4, 5, 6, 7, 8];
/** `array[...]` of the sums of `c.delta` for each status and user type (`user_group`, 0013). */
const DELTAS = `array[${GROUPS.map((g) => `coalesce(sum(c.delta) filter (where c.g = ${g}), 0)`).join(', ')}]::integer[]`;
/** The kept counts of `table` plus the new ones, group by group. */
const added = (table: string) => `array[${GROUPS.map((g) => `${table}.n[${g}] + excluded.n[${g}]`).join(', ')}]`;

/**
 * The changes' one- to three-character grams, and the organisation's heavy searches they hold,
 * counted into the parts they fall in, in both orders: `changes` is a query of (org_id, id,
 * sort_name, search_text, g, delta). Organisations without
 * parts (small ones, and those never bulk-loaded nor recounted) and those being bulk-loaded are
 * left alone. Rows are upserted in key order, as the grams' triggers do, so that two writers queue
 * rather than deadlock.
 */
const addPartGrams = (changes: string) => `
      with c as (${changes})
      insert into user_part_grams (org_id, by_name, gram, sort_name, id, n)
        select c.org_id, o.by_name, g.gram, p.sort_name, p.id, ${DELTAS}
        from c
        cross join (values (false), (true)) o(by_name)
        cross join lateral user_part_of(c.org_id, o.by_name, case when o.by_name then c.sort_name else '' end, c.id) p
        cross join lateral search_part_grams(c.search_text) g(gram)
        where not exists (select 1 from user_search_grams_pending q where q.org_id = c.org_id)
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (org_id, by_name, gram, sort_name, id) do update set n = ${added('user_part_grams')};
      with c as (${changes})
      insert into user_part_searches (org_id, by_name, search, sort_name, id, n)
        select c.org_id, o.by_name, k.search, p.sort_name, p.id, ${DELTAS}
        from c
        join (
          select distinct s.org_id, s.search from user_part_searches s
          where not s.by_name and s.org_id in (select org_id from c)
        ) k on k.org_id = c.org_id and strpos(c.search_text, k.search) > 0
        cross join (values (false), (true)) o(by_name)
        cross join lateral user_part_of(c.org_id, o.by_name, case when o.by_name then c.sort_name else '' end, c.id) p
        where not exists (select 1 from user_search_grams_pending q where q.org_id = c.org_id)
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (org_id, by_name, search, sort_name, id) do update set n = ${added('user_part_searches')};`;

/**
 * Counts of every one- to three-character gram per part of each order. A search of one or two
 * characters cannot use the trigram index, and such a search, like a dense one of three, is held by
 * users all through either order: its first deep page counted its matches in the page buckets from
 * the nearer end, up to half the organisation or more ("us" by name, page 4,000 of 1,000,000 users:
 * 730 buckets, 147–192 ms on PostgreSQL; "ser" by name, page 5,000: 332 ms). With these counts it
 * adds up at most a few dozen parts' counts to find the part the page starts in, and walks from
 * that part's first key past fewer than one part's users. The heavy searches a load or recount
 * finds (four characters or more that 20,000 users or more hold, at most 50, 0012) are counted per
 * part too (`user_part_searches`): such a search's middle page counted up to 800 buckets ("er.3" by
 * name, page 640: 155–379 ms).
 *
 * A part is a run of consecutive users in one order (by id; by sort name and id), cut every
 * 32,768 users by a bulk load or a recount (`user_part_bounds`, each part keyed by its first
 * user's key, the first by one below every user's), and never cut again by writes: a user written
 * later falls in the part with the greatest key not above its own, and a part grows until the next
 * recount. The writers' triggers keep the counts in the same transaction as every change, as the
 * organisation's grams (0005) are kept. Organisations without parts have no counts: their deep
 * pages count page buckets, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table user_part_bounds (
      org_id uuid not null,
      by_name boolean not null,
      sort_name text collate "C" not null,
      id uuid not null,
      primary key (org_id, by_name, sort_name, id)
    );

    create table user_part_grams (
      org_id uuid not null,
      by_name boolean not null,
      gram text collate "C" not null,
      sort_name text collate "C" not null,
      id uuid not null,
      n integer[] not null,
      primary key (org_id, by_name, gram, sort_name, id)
    );

    create table user_part_searches (
      org_id uuid not null,
      by_name boolean not null,
      search text collate "C" not null,
      sort_name text collate "C" not null,
      id uuid not null,
      n integer[] not null,
      primary key (org_id, by_name, search, sort_name, id)
    );

    -- The distinct 1- to 3-character substrings of a search text: search_grams() of 0005, without
    -- the domain key 0007 added to it.
    create function search_part_grams(search_text text) returns setof text
      language sql immutable parallel safe as $$
        select distinct substr(search_text, i, k)
        from generate_series(1, length(search_text)) i, generate_series(1, 3) k
        where i + k - 1 <= length(search_text) and strpos(substr(search_text, i, k), chr(31)) = 0
      $$;

    -- The part a key falls in: the bound with the greatest key not above it (none without parts).
    create function user_part_of(part_org uuid, part_by_name boolean, part_sort text, part_id uuid)
      returns table (sort_name text, id uuid) language sql stable as $$
        select b.sort_name, b.id from user_part_bounds b
        where b.org_id = part_org and b.by_name = part_by_name
          and (b.sort_name, b.id) <= (part_sort collate "C", part_id)
        order by b.sort_name desc, b.id desc
        limit 1
      $$;

    create function users_part_grams_insert() returns trigger language plpgsql as $$
    begin
      ${addPartGrams(`select org_id, id, sort_name, search_text, user_group(status, is_system_admin) as g, 1 as delta from inserted`)}
      return null;
    end $$;

    create function users_part_grams_delete() returns trigger language plpgsql as $$
    begin
      ${addPartGrams(`select org_id, id, sort_name, search_text, user_group(status, is_system_admin) as g, -1 as delta from deleted`)}
      return null;
    end $$;

    -- Only rows whose search text, name, status or user type changed move counts.
    create function users_part_grams_update() returns trigger language plpgsql as $$
    begin
      ${addPartGrams(`
          select o.org_id, o.id, o.sort_name, o.search_text, user_group(o.status, o.is_system_admin) as g, -1 as delta
          from deleted o left join inserted n on n.org_id = o.org_id and n.id = o.id
          where n.id is null
             or (n.search_text, n.sort_name, n.status, n.is_system_admin)
                is distinct from (o.search_text, o.sort_name, o.status, o.is_system_admin)
          union all
          select n.org_id, n.id, n.sort_name, n.search_text, user_group(n.status, n.is_system_admin) as g, 1 as delta
          from inserted n left join deleted o on o.org_id = n.org_id and o.id = n.id
          where o.id is null
             or (n.search_text, n.sort_name, n.status, n.is_system_admin)
                is distinct from (o.search_text, o.sort_name, o.status, o.is_system_admin)`)}
      return null;
    end $$;

    create trigger users_part_grams_insert after insert on users
      referencing new table as inserted for each statement execute function users_part_grams_insert();
    create trigger users_part_grams_delete after delete on users
      referencing old table as deleted for each statement execute function users_part_grams_delete();
    create trigger users_part_grams_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_part_grams_update();
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop trigger users_part_grams_update on users;
    drop trigger users_part_grams_delete on users;
    drop trigger users_part_grams_insert on users;
    drop function users_part_grams_update();
    drop function users_part_grams_delete();
    drop function users_part_grams_insert();
    drop function user_part_of(uuid, boolean, text, uuid);
    drop function search_part_grams(text);
    drop table user_part_searches;
    drop table user_part_grams;
    drop table user_part_bounds;
    `,
  );
}
