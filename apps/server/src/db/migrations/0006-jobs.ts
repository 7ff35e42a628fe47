import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Jobs: an action over every user matching a filter, applied batch by batch by whichever server
 * instance holds the job's lease; each user's result kept for the job's CSV.
 */
export const STATEMENTS = `
create table jobs (
  org_id uuid not null,
  id uuid not null,
  action text not null,
  is_system_admin boolean,
  -- The list's query string the administrator confirmed, without paging and sort.
  filter text not null,
  -- The session's subject, as audit events take it.
  actor_id text not null,
  request_id text,
  status text not null default 'queued',
  total integer not null,
  processed integer not null default 0,
  done integer not null default 0,
  skipped jsonb not null default '{}',
  -- The last user of the last committed batch: the next one starts after it.
  after_id uuid,
  lease_owner text,
  lease_expires_at timestamptz,
  -- Claims since the last committed batch: a job that keeps failing stops as failed.
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  primary key (org_id, id)
);
-- What workers look through: the unfinished jobs, oldest first.
create index jobs_unfinished_idx on jobs (created_at) where status in ('queued', 'running');

create table job_results (
  org_id uuid not null,
  job_id uuid not null,
  user_id uuid not null,
  -- Copied: the CSV outlives a removed user.
  name text not null,
  email text not null,
  result text not null,
  reason text,
  primary key (org_id, job_id, user_id)
);
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
