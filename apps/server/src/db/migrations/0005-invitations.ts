import type { Kysely } from 'kysely';
import { runStatements } from './run-statements.ts';

/**
 * Invitations by e-mail and the outbox their mail waits in, both kept per organisation: a user's
 * newest invitation is the one whose link works, and a mail row is written in the same transaction
 * as its invitation, then delivered by a sender (mail/mail-sender.ts).
 */
export const STATEMENTS = `
-- The language of an invitation to a user who has no account yet.
alter table organizations add column locale text not null default 'en';

create table invitations (
  org_id uuid not null,
  id uuid not null,
  user_id uuid not null,
  -- SHA-256 of the link's token: the table yields no working link.
  token_hash text not null,
  invited_by uuid,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (org_id, id)
);
create unique index invitations_token_key on invitations (org_id, token_hash);
create index invitations_user_idx on invitations (org_id, user_id, created_at desc);

create table mail_outbox (
  org_id uuid not null,
  id uuid not null,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  attempts integer not null default 0,
  -- When a sender may take it next: later after each failure, and while one is sending it.
  next_attempt_at timestamptz not null default now(),
  last_error text,
  -- Sent: the bodies (which hold the link) are erased.
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (org_id, id)
);
-- Only unsent mail: small, so the sender's look across organisations reads it all.
create index mail_outbox_due_idx on mail_outbox (org_id, next_attempt_at) where sent_at is null;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, STATEMENTS);
}
