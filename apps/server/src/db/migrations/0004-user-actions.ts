import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Actions on users: each user's version (the ETag of `GET …/users/{id}`, one more at every change
 * made through the API) and the audit trail of those changes, kept per organisation.
 */
export const STATEMENTS = `
-- A constant default: PostgreSQL adds it without rewriting the table.
alter table users add column version bigint not null default 1;

create table audit_events (
  org_id uuid not null,
  id uuid not null,
  action text not null,
  -- Names are copied: the event outlives a removed user or administrator.
  actor_id uuid,
  actor_name text,
  user_id uuid not null,
  user_name text not null,
  before jsonb not null,
  after jsonb not null,
  request_id text,
  -- The job that made the change, if any; no foreign key (jobs come later, and events outlive them).
  job_id uuid,
  created_at timestamptz not null default now(),
  primary key (org_id, id)
);
-- Newest first, per organisation and per user.
create index audit_events_newest_idx on audit_events (org_id, created_at desc, id desc);
create index audit_events_user_idx on audit_events (org_id, user_id, created_at desc, id desc);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
