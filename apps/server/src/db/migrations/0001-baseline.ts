import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/** The users table is cut into this many parts by a hash of `org_id`. */
export const USER_PARTS = 16;

const parts = Array.from({ length: USER_PARTS }, (_, remainder) => {
  const name = `users_p${String(remainder).padStart(2, '0')}`;
  return `create table if not exists ${name} partition of users for values with (modulus ${USER_PARTS}, remainder ${remainder});`;
}).join('\n');

/**
 * The whole schema as it is now. Every tenant table leads its key with `org_id`, the key a
 * distributed PostgreSQL (Citus) would shard by. Written with `if not exists` so that it can also
 * finish a database made by the previous migrations (`legacy-upgrade.ts`).
 */
export const BASELINE = `
create table if not exists organizations (
  id uuid primary key,
  name text not null,
  slug text not null unique,
  created_at timestamptz not null default now()
);

-- A person who can sign in at the embedded identity provider; a member of organisations through users.account_id.
create table if not exists accounts (
  id uuid primary key,
  email text not null,
  name text not null,
  password_hash text not null,
  locale text not null default 'en',
  created_at timestamptz not null default now()
);
create unique index if not exists accounts_email_key on accounts (lower(email));

-- sort_name: the name folded for people's order; search_text: lower(name) U+001F lower(email), what a search matches.
-- Both are written by the application (lib/user-text.ts), whose lower-casing does not depend on the database's locale.
create table if not exists users (
  org_id uuid not null references organizations (id),
  id uuid not null,
  account_id uuid references accounts (id),
  name text not null,
  email text not null,
  initials text,
  first_name text,
  last_name text,
  status text not null check (status in ('active', 'inactive', 'pending', 'disabled')),
  is_external boolean not null default false,
  is_system_admin boolean not null default false,
  sort_name text collate "C" not null,
  search_text text collate "C" not null,
  created_at timestamptz not null default now(),
  -- The key is also the join order's index: it holds what a list filters on, so that a page walks it
  -- without reading the table.
  primary key (org_id, id) include (status, is_system_admin, is_external)
) partition by hash (org_id);
${parts}

create unique index if not exists users_org_account_key on users (org_id, account_id) where account_id is not null;
create index if not exists users_account_idx on users (account_id) where account_id is not null;
-- The order by name, holding the same.
create index if not exists users_by_name_idx on users (org_id, sort_name, id) include (status, is_system_admin, is_external);
-- Each order again with the search text, for the walks of a search: apart, so that the pages of a list without
-- one walk entries half as large.
create index if not exists users_search_by_id_idx on users (org_id, id)
  include (status, is_system_admin, is_external, search_text, sort_name);
create index if not exists users_search_by_name_idx on users (org_id, sort_name, id)
  include (status, is_system_admin, is_external, search_text);
-- The rare values of each filter in each order, so that their pages are read without walking every
-- other user; a common value (active users, users who are not admins) walks the orders' indexes above.
create index if not exists users_status_by_id_idx on users (org_id, status, id)
  include (is_system_admin, is_external) where status <> 'active';
create index if not exists users_status_by_name_idx on users (org_id, status, sort_name, id)
  include (is_system_admin, is_external) where status <> 'active';
create index if not exists users_admin_by_id_idx on users (org_id, id) include (status, is_external) where is_system_admin;
create index if not exists users_admin_by_name_idx on users (org_id, sort_name, id)
  include (status, is_external) where is_system_admin;
-- Substring search: each user's pairs of adjacent characters, and characters outside ASCII (a search of one). A
-- search's pairs are all in the text of every user it matches, so the index finds them; an array's containment is
-- exact, so a candidate is not tested again. Kept in step with searchGrams() in lib/user-text.ts.
create or replace function search_grams(t text) returns text[] language sql immutable parallel safe as $$
  select string_to_array(
      regexp_replace(t, '(..)', '\\1' || chr(30), 'g') || chr(30) || regexp_replace(substr(t, 2), '(..)', '\\1' || chr(30), 'g'),
      chr(30))
    || string_to_array(regexp_replace(t, '[\\x01-\\x7f]+', '', 'g'), null)
$$;
create index if not exists users_search_grams_idx on users using gin (search_grams(search_text));

-- Users per organisation and filter value, kept in the same transaction as every write by the triggers below.
create table if not exists user_counts (
  org_id uuid not null,
  status text not null,
  is_system_admin boolean not null,
  is_external boolean not null,
  n bigint not null,
  primary key (org_id, status, is_system_admin, is_external)
);

-- Adds each row's +1 (new_rows) and -1 (old_rows) to its group; in key order, so two writers never deadlock.
create or replace function user_counts_insert() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, count(*) from new_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  return null;
end $$;

create or replace function user_counts_delete() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, -count(*) from old_rows group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  return null;
end $$;

create or replace function user_counts_update() returns trigger language plpgsql as $$
begin
  insert into user_counts as c (org_id, status, is_system_admin, is_external, n)
  select org_id, status, is_system_admin, is_external, sum(d) from (
    select org_id, status, is_system_admin, is_external, 1 as d from new_rows
    union all
    select org_id, status, is_system_admin, is_external, -1 from old_rows
  ) changed
  group by 1, 2, 3, 4 having sum(d) <> 0 order by 1, 2, 3, 4
  on conflict (org_id, status, is_system_admin, is_external) do update set n = c.n + excluded.n;
  return null;
end $$;

create or replace function user_counts_truncate() returns trigger language plpgsql as $$
begin
  delete from user_counts;
  return null;
end $$;

create or replace trigger user_counts_insert after insert on users
  referencing new table as new_rows for each statement execute function user_counts_insert();
create or replace trigger user_counts_delete after delete on users
  referencing old table as old_rows for each statement execute function user_counts_delete();
create or replace trigger user_counts_update after update on users
  referencing old table as old_rows new table as new_rows for each statement execute function user_counts_update();
create or replace trigger user_counts_truncate after truncate on users
  for each statement execute function user_counts_truncate();

-- Sessions of the page's server (the cookie holds a random id; this table its SHA-256).
create table if not exists sessions (
  id text primary key,
  account_sub text not null,
  org_id uuid not null,
  claims jsonb not null,
  id_token text,
  access_token_expires_at timestamptz not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index if not exists sessions_expires_idx on sessions (expires_at);

-- The embedded identity provider's state (oidc-provider's adapter), so any instance can serve any step.
create table if not exists oidc_payloads (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index if not exists oidc_payloads_grant_idx on oidc_payloads (grant_id) where grant_id is not null;
create index if not exists oidc_payloads_uid_idx on oidc_payloads (uid) where uid is not null;
create index if not exists oidc_payloads_user_code_idx on oidc_payloads (user_code) where user_code is not null;
create index if not exists oidc_payloads_expires_idx on oidc_payloads (expires_at) where expires_at is not null;

create table if not exists app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Sign-in attempts per SHA-256 of e-mail and client address in a fixed window, shared by every instance.
create table if not exists sign_in_attempts (
  key text primary key,
  window_started_at timestamptz not null,
  attempts integer not null
);
create index if not exists sign_in_attempts_window_idx on sign_in_attempts (window_started_at);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, BASELINE);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop table sign_in_attempts, app_secrets, oidc_payloads, sessions, user_counts, users, accounts, organizations;
    drop function user_counts_insert, user_counts_delete, user_counts_update, user_counts_truncate,
      search_grams;`,
  );
}
