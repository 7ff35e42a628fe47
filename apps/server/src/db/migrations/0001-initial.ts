import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Every table that holds tenant data leads its primary key with org_id, so the schema can be
 * distributed by organisation (Citus: `select create_distributed_table('users', 'org_id')`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table organizations (
      id uuid primary key,
      name text not null,
      slug text not null unique,
      created_at timestamptz not null default now()
    );

    create table accounts (
      id uuid primary key,
      email text not null,
      name text not null,
      password_hash text not null,
      locale text not null default 'en',
      created_at timestamptz not null default now()
    );
    create unique index accounts_email_key on accounts (lower(email));

    create table users (
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
      primary key (org_id, id)
    );
    create index users_org_sort_idx on users (org_id, sort_name, id);
    create unique index users_org_account_key on users (org_id, account_id) where account_id is not null;
    create index users_account_idx on users (account_id) where account_id is not null;

    create table sessions (
      id text primary key,
      account_sub text not null,
      org_id uuid not null,
      claims jsonb not null,
      id_token text,
      access_token_expires_at timestamptz not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index sessions_expires_idx on sessions (expires_at);

    create table oidc_payloads (
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
    create index oidc_payloads_grant_idx on oidc_payloads (grant_id) where grant_id is not null;
    create index oidc_payloads_uid_idx on oidc_payloads (uid) where uid is not null;
    create index oidc_payloads_user_code_idx on oidc_payloads (user_code) where user_code is not null;

    create table app_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop table app_secrets;
    drop table oidc_payloads;
    drop table sessions;
    drop table users;
    drop table accounts;
    drop table organizations;
  `,
  );
}
