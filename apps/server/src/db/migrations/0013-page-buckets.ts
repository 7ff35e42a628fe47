import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/** The counts of a bucket per status and user type, `n[1]` to `n[8]` (see `user_group`), as one sum. */
const SUM_OF_N = 'n[1] + n[2] + n[3] + n[4] + n[5] + n[6] + n[7] + n[8]';
/** `array[...]` of how many rows of `r` (with a column `g`) have each status and user type. */
const COUNTS_OF_R = `array[${[1, 2, 3, 4, 5, 6, 7, 8].map((g) => `count(*) filter (where g = ${g})`).join(', ')}]::integer[]`;

/**
 * Page buckets, in place of the page anchors of 0003. Each organisation's users are cut, in each
 * order (by id; by sort name and id), into buckets of consecutive users, and each bucket holds how
 * many of its users have each status and user type. A deep page of any list without a search (any
 * filters, either order) adds up its filters' counts of the buckets before it to find the bucket it
 * starts in, then walks from that bucket's key past at most one bucket's users.
 *
 * Anchors (every 1,000th key of a list) held for one data version: after any write to the
 * organisation, the first deep page of each list numbered the whole list again (0.15–3.6 s at
 * 1,000,000 users). Buckets are kept by statement-level triggers in the same transaction as every
 * change, as the counts are (0002): a user added, removed or changed moves the counts of one bucket
 * per order, and a bucket grown past 2,000 users is cut into buckets of 1,000 from its own rows.
 * Writers of one organisation already wait for each other on its `org_data_versions` row (the count
 * triggers, which run first, update it), so no two change its buckets at once.
 *
 * A bucket's key is its first user's when it was cut; an organisation's first bucket in each order
 * has a key below every user's ('', the nil uuid), so each user falls in the bucket with the
 * greatest key not above its own. A bulk load (its organisation pending, 0005) builds its buckets at
 * the end with `user_page_buckets_build`, as a recount does, and the triggers leave it alone until.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop table user_page_anchors;

    create table user_page_buckets (
      org_id uuid not null,
      by_name boolean not null,
      sort_name text collate "C" not null,
      id uuid not null,
      n integer[] not null,
      primary key (org_id, by_name, sort_name, id)
    );

    create function user_group(status text, is_system_admin boolean) returns integer
      language sql immutable parallel safe as $$
      select (array_position(array['active', 'inactive', 'pending', 'disabled'], status) - 1) * 2
        + is_system_admin::integer + 1
    $$;

    create function user_page_bucket_cut(
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
    create function user_page_buckets_add(
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

    create function user_page_buckets_build(bucket_org uuid) returns void language plpgsql as $$
    begin
      delete from user_page_buckets where org_id = bucket_org;
      with r as (
        select i, g, (row_number() over (order by i) - 1) / 1000 as part
        from (select id as i, user_group(status, is_system_admin) as g from users where org_id = bucket_org) w
      ),
      parts as (select part, ${COUNTS_OF_R} as n from r group by part),
      firsts as (select distinct on (part) part, i from r order by part, i)
      insert into user_page_buckets (org_id, by_name, sort_name, id, n)
        select bucket_org, false, '',
          case when part = 0 then '00000000-0000-0000-0000-000000000000'::uuid else f.i end, p.n
        from parts p join firsts f using (part) order by part;
      with r as (
        select s, i, g, (row_number() over (order by s, i) - 1) / 1000 as part
        from (
          select sort_name as s, id as i, user_group(status, is_system_admin) as g from users
          where org_id = bucket_org
        ) w
      ),
      parts as (select part, ${COUNTS_OF_R} as n from r group by part),
      firsts as (select distinct on (part) part, s, i from r order by part, s, i)
      insert into user_page_buckets (org_id, by_name, sort_name, id, n)
        select bucket_org, true, case when part = 0 then '' else f.s end,
          case when part = 0 then '00000000-0000-0000-0000-000000000000'::uuid else f.i end, p.n
        from parts p join firsts f using (part) order by part;
      -- An organisation without users has its first buckets all the same.
      insert into user_page_buckets (org_id, by_name, sort_name, id, n)
        select bucket_org, k.by_name, '', '00000000-0000-0000-0000-000000000000', array_fill(0, array[8])
        from (values (false), (true)) k(by_name)
        on conflict do nothing;
    end $$;

    -- A new organisation's first buckets, below every key, in both orders.
    create function organizations_page_buckets_insert() returns trigger language plpgsql as $$
    begin
      insert into user_page_buckets (org_id, by_name, sort_name, id, n)
        select new.id, k.by_name, '', '00000000-0000-0000-0000-000000000000', array_fill(0, array[8])
        from (values (false), (true)) k(by_name)
        on conflict do nothing;
      return null;
    end $$;

    create trigger organizations_page_buckets_insert after insert on organizations
      for each row execute function organizations_page_buckets_insert();

    create function users_page_buckets_insert() returns trigger language plpgsql as $$
    begin
      perform user_page_buckets_add(
        array_agg(org_id), array_agg(sort_name), array_agg(id),
        array_agg(user_group(status, is_system_admin)), array_agg(1)
      )
      from inserted where org_id not in (select org_id from user_search_grams_pending);
      return null;
    end $$;

    create function users_page_buckets_delete() returns trigger language plpgsql as $$
    begin
      perform user_page_buckets_add(
        array_agg(org_id), array_agg(sort_name), array_agg(id),
        array_agg(user_group(status, is_system_admin)), array_agg(-1)
      )
      from deleted where org_id not in (select org_id from user_search_grams_pending);
      return null;
    end $$;

    -- Only the rows whose bucket or counts move: a change of key, status, user type or organisation.
    create function users_page_buckets_update() returns trigger language plpgsql as $$
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

    create trigger users_page_buckets_insert after insert on users
      referencing new table as inserted for each statement execute function users_page_buckets_insert();
    create trigger users_page_buckets_delete after delete on users
      referencing old table as deleted for each statement execute function users_page_buckets_delete();
    create trigger users_page_buckets_update after update on users
      referencing old table as deleted new table as inserted for each statement execute function users_page_buckets_update();

    select user_page_buckets_build(id) from organizations
      where id not in (select org_id from user_search_grams_pending);
    insert into user_page_buckets (org_id, by_name, sort_name, id, n)
      select o.id, k.by_name, '', '00000000-0000-0000-0000-000000000000', array_fill(0, array[8])
      from organizations o cross join (values (false), (true)) k(by_name)
      on conflict do nothing;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop trigger organizations_page_buckets_insert on organizations;
    drop function organizations_page_buckets_insert();
    drop trigger users_page_buckets_insert on users;
    drop trigger users_page_buckets_delete on users;
    drop trigger users_page_buckets_update on users;
    drop function users_page_buckets_insert();
    drop function users_page_buckets_delete();
    drop function users_page_buckets_update();
    drop function user_page_buckets_build(uuid);
    drop function user_page_buckets_add(uuid[], text[], uuid[], integer[], integer[]);
    drop function user_page_bucket_cut(uuid, boolean, text, uuid, integer);
    drop function user_group(text, boolean);
    drop table user_page_buckets;
    create table user_page_anchors (
      org_id uuid not null,
      version bigint not null,
      list_key text not null,
      position integer not null,
      sort_name text collate "C" not null,
      id uuid not null,
      primary key (org_id, list_key, version, position)
    );
  `,
  );
}
