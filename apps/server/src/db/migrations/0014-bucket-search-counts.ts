import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/** The counts of a bucket per status and user type, `n[1]` to `n[8]` (see `user_group`), as one sum. */
const SUM_OF_N = 'n[1] + n[2] + n[3] + n[4] + n[5] + n[6] + n[7] + n[8]';
/** `array[...]` of how many rows of `r` (with a column `g`) have each status and user type. */
const COUNTS_OF_R = `array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `count(*) filter (where g = ${g})`).join(', ')}]::integer[]`;

/**
 * Search counts per page bucket. A deep page of a search that many users hold walked the ordered
 * index from the nearer end, checking every user before the page ("user." at 1,000,000 users, page
 * 10,000: 0.12 s; the middle of a search in every other name: up to 1 s). Its matches are now
 * counted per page bucket (0013), per status and user type, as the buckets count every user: the
 * page adds up the buckets before it and walks from its own bucket's key, past at most one bucket.
 *
 * The counts are not kept by the writers (a search is any text): each is taken for one version of
 * its bucket and read again only while the bucket keeps that version. Every change to a bucket's
 * users, their search text included, and every cut gives the bucket a new version from a sequence
 * (never reused), so after a write only the buckets it touched are counted again (about 1,000 users
 * each) instead of the whole search. Rows of buckets that no longer exist (a rebuild) are dropped
 * when counts are next added, and an organisation keeps the counts of its most recently counted
 * searches only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create sequence user_page_bucket_versions;

    alter table user_page_buckets add column version bigint not null default nextval('user_page_bucket_versions');

    create table user_page_bucket_searches (
      org_id uuid not null,
      search text collate "C" not null,
      by_name boolean not null,
      sort_name text collate "C" not null,
      id uuid not null,
      version bigint not null,
      n integer[] not null,
      counted_at timestamptz not null default now(),
      primary key (org_id, search, by_name, sort_name, id)
    );

    create or replace function user_page_bucket_cut(
      bucket_org uuid, bucket_by_name boolean, bucket_sort text, bucket_id uuid, bucket_users integer
    ) returns void language plpgsql as $$
    begin
      if bucket_by_name then
        with r as (
          select s, i, g, (row_number() over (order by s, i) - 1) / 1000 as part
          from (
            select u.sort_name as s, u.id as i, user_group(u.status, u.is_system_admin) as g from users u
            where u.org_id = bucket_org and (u.sort_name, u.id) >= (bucket_sort collate "C", bucket_id)
            order by u.sort_name, u.id limit bucket_users
          ) w
        ),
        parts as (select part, ${COUNTS_OF_R} as n from r group by part),
        firsts as (select distinct on (part) part, s, i from r order by part, s, i),
        kept as (
          update user_page_buckets q set n = p.n, version = nextval('user_page_bucket_versions') from parts p
          where p.part = 0 and q.org_id = bucket_org and q.by_name
            and q.sort_name = bucket_sort collate "C" and q.id = bucket_id
        )
        insert into user_page_buckets (org_id, by_name, sort_name, id, n)
          select bucket_org, true, f.s, f.i, p.n from parts p join firsts f using (part)
          where part > 0 order by f.s, f.i;
      else
        with r as (
          select i, g, (row_number() over (order by i) - 1) / 1000 as part
          from (
            select u.id as i, user_group(u.status, u.is_system_admin) as g from users u
            where u.org_id = bucket_org and u.id >= bucket_id
            order by u.id limit bucket_users
          ) w
        ),
        parts as (select part, ${COUNTS_OF_R} as n from r group by part),
        firsts as (select distinct on (part) part, i from r order by part, i),
        kept as (
          update user_page_buckets q set n = p.n, version = nextval('user_page_bucket_versions') from parts p
          where p.part = 0 and q.org_id = bucket_org and not q.by_name and q.sort_name = '' and q.id = bucket_id
        )
        insert into user_page_buckets (org_id, by_name, sort_name, id, n)
          select bucket_org, false, '', f.i, p.n from parts p join firsts f using (part)
          where part > 0 order by f.i;
      end if;
    end $$;

    -- Adds users (+1) and takes them away (-1) from the buckets of their organisations: (org_id,
    -- sort_name, id, group, delta), and gives every bucket it touches a new version, its counts moved
    -- or not (a user whose search text changed is taken away and added back). A bucket grown past
    -- 2,000 users is cut into buckets of 1,000.
    create or replace function user_page_buckets_add(
      org_ids uuid[], sort_names text[], ids uuid[], groups integer[], deltas integer[]
    ) returns void language plpgsql as $$
    declare
      b record;
    begin
      for b in
        with c as (select * from unnest(org_ids, sort_names, ids, groups, deltas) c(org_id, sort_name, id, g, d)),
        placed as (
          select p.org_id, p.by_name, p.sort_name, p.id, c.g, sum(c.d) as d
          from c cross join (values (false), (true)) k(by_name)
          cross join lateral (
            select q.org_id, q.by_name, q.sort_name, q.id from user_page_buckets q
            where q.org_id = c.org_id and q.by_name = k.by_name
              and (q.sort_name, q.id) <= ((case when k.by_name then c.sort_name else '' end) collate "C", c.id)
            order by q.sort_name desc, q.id desc limit 1
          ) p
          group by 1, 2, 3, 4, 5
        ),
        moved as (
          select org_id, by_name, sort_name, id,
            array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `coalesce(sum(d) filter (where g = ${g}), 0)`).join(', ')}]::integer[] as d
          from placed group by 1, 2, 3, 4
        ),
        changed as (
          update user_page_buckets q
            set n = array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `q.n[${g}] + m.d[${g}]`).join(', ')}],
              version = nextval('user_page_bucket_versions')
          from moved m
          where q.org_id = m.org_id and q.by_name = m.by_name and q.sort_name = m.sort_name and q.id = m.id
          returning q.org_id, q.by_name, q.sort_name, q.id, q.n
        )
        select org_id, by_name, sort_name, id, ${SUM_OF_N} as users from changed
        where ${SUM_OF_N} > 2000
        order by org_id, by_name, sort_name, id
      loop
        perform user_page_bucket_cut(b.org_id, b.by_name, b.sort_name, b.id, b.users);
      end loop;
    end $$;

    -- Only the rows whose bucket, counts or search text move: a change of key, status, user type,
    -- organisation or search text.
    create or replace function users_page_buckets_update() returns trigger language plpgsql as $$
    begin
      perform user_page_buckets_add(array_agg(org_id), array_agg(sort_name), array_agg(id), array_agg(g), array_agg(d))
      from (
        select d.org_id, d.sort_name, d.id, user_group(d.status, d.is_system_admin) as g, -1 as d from deleted d
        where not exists (
          select 1 from inserted i where i.org_id = d.org_id and i.id = d.id and i.sort_name = d.sort_name
            and i.status = d.status and i.is_system_admin = d.is_system_admin and i.search_text = d.search_text
        )
        union all
        select i.org_id, i.sort_name, i.id, user_group(i.status, i.is_system_admin), 1 from inserted i
        where not exists (
          select 1 from deleted d where d.org_id = i.org_id and d.id = i.id and d.sort_name = i.sort_name
            and d.status = i.status and d.is_system_admin = i.is_system_admin and d.search_text = i.search_text
        )
      ) c
      where org_id not in (select org_id from user_search_grams_pending);
      return null;
    end $$;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create or replace function user_page_bucket_cut(
      bucket_org uuid, bucket_by_name boolean, bucket_sort text, bucket_id uuid, bucket_users integer
    ) returns void language plpgsql as $$
    begin
      if bucket_by_name then
        with r as (
          select s, i, g, (row_number() over (order by s, i) - 1) / 1000 as part
          from (
            select u.sort_name as s, u.id as i, user_group(u.status, u.is_system_admin) as g from users u
            where u.org_id = bucket_org and (u.sort_name, u.id) >= (bucket_sort collate "C", bucket_id)
            order by u.sort_name, u.id limit bucket_users
          ) w
        ),
        parts as (select part, ${COUNTS_OF_R} as n from r group by part),
        firsts as (select distinct on (part) part, s, i from r order by part, s, i),
        kept as (
          update user_page_buckets q set n = p.n from parts p
          where p.part = 0 and q.org_id = bucket_org and q.by_name
            and q.sort_name = bucket_sort collate "C" and q.id = bucket_id
        )
        insert into user_page_buckets (org_id, by_name, sort_name, id, n)
          select bucket_org, true, f.s, f.i, p.n from parts p join firsts f using (part)
          where part > 0 order by f.s, f.i;
      else
        with r as (
          select i, g, (row_number() over (order by i) - 1) / 1000 as part
          from (
            select u.id as i, user_group(u.status, u.is_system_admin) as g from users u
            where u.org_id = bucket_org and u.id >= bucket_id
            order by u.id limit bucket_users
          ) w
        ),
        parts as (select part, ${COUNTS_OF_R} as n from r group by part),
        firsts as (select distinct on (part) part, i from r order by part, i),
        kept as (
          update user_page_buckets q set n = p.n from parts p
          where p.part = 0 and q.org_id = bucket_org and not q.by_name and q.sort_name = '' and q.id = bucket_id
        )
        insert into user_page_buckets (org_id, by_name, sort_name, id, n)
          select bucket_org, false, '', f.i, p.n from parts p join firsts f using (part)
          where part > 0 order by f.i;
      end if;
    end $$;

    -- Adds users (+1) and takes them away (-1) from the buckets of their organisations: (org_id,
    -- sort_name, id, group, delta). A bucket grown past 2,000 users is cut into buckets of 1,000.
    create or replace function user_page_buckets_add(
      org_ids uuid[], sort_names text[], ids uuid[], groups integer[], deltas integer[]
    ) returns void language plpgsql as $$
    declare
      b record;
    begin
      for b in
        with c as (select * from unnest(org_ids, sort_names, ids, groups, deltas) c(org_id, sort_name, id, g, d)),
        placed as (
          select p.org_id, p.by_name, p.sort_name, p.id, c.g, sum(c.d) as d
          from c cross join (values (false), (true)) k(by_name)
          cross join lateral (
            select q.org_id, q.by_name, q.sort_name, q.id from user_page_buckets q
            where q.org_id = c.org_id and q.by_name = k.by_name
              and (q.sort_name, q.id) <= ((case when k.by_name then c.sort_name else '' end) collate "C", c.id)
            order by q.sort_name desc, q.id desc limit 1
          ) p
          group by 1, 2, 3, 4, 5
        ),
        moved as (
          select org_id, by_name, sort_name, id,
            array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `coalesce(sum(d) filter (where g = ${g}), 0)`).join(', ')}]::integer[] as d
          from placed group by 1, 2, 3, 4
        ),
        changed as (
          update user_page_buckets q
            set n = array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `q.n[${g}] + m.d[${g}]`).join(', ')}]
          from moved m
          where q.org_id = m.org_id and q.by_name = m.by_name and q.sort_name = m.sort_name and q.id = m.id
            and m.d <> array_fill(0, array[8])
          returning q.org_id, q.by_name, q.sort_name, q.id, q.n
        )
        select org_id, by_name, sort_name, id, ${SUM_OF_N} as users from changed
        where ${SUM_OF_N} > 2000
        order by org_id, by_name, sort_name, id
      loop
        perform user_page_bucket_cut(b.org_id, b.by_name, b.sort_name, b.id, b.users);
      end loop;
    end $$;

    -- Only the rows whose bucket or counts move: a change of key, status, user type or organisation.
    create or replace function users_page_buckets_update() returns trigger language plpgsql as $$
    begin
      perform user_page_buckets_add(array_agg(org_id), array_agg(sort_name), array_agg(id), array_agg(g), array_agg(d))
      from (
        select d.org_id, d.sort_name, d.id, user_group(d.status, d.is_system_admin) as g, -1 as d from deleted d
        where not exists (
          select 1 from inserted i where i.org_id = d.org_id and i.id = d.id and i.sort_name = d.sort_name
            and i.status = d.status and i.is_system_admin = d.is_system_admin
        )
        union all
        select i.org_id, i.sort_name, i.id, user_group(i.status, i.is_system_admin), 1 from inserted i
        where not exists (
          select 1 from deleted d where d.org_id = i.org_id and d.id = i.id and d.sort_name = i.sort_name
            and d.status = i.status and d.is_system_admin = i.is_system_admin
        )
      ) c
      where org_id not in (select org_id from user_search_grams_pending);
      return null;
    end $$;

    drop table user_page_bucket_searches;
    alter table user_page_buckets drop column version;
    drop sequence user_page_bucket_versions;
  `,
  );
}
