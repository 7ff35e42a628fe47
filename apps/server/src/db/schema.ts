import type { UserStatus } from '@users-admin/contract';
import type { AuditAction, JobStatus, SkipReason, UserAction } from '@users-admin/contract/user-actions';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Table types of the database, kept in step with the migrations in ./migrations. */
export interface Database {
  organizations: OrganizationsTable;
  accounts: AccountsTable;
  users: UsersTable;
  user_counts: UserCountsTable;
  sign_in_counts: SignInCountsTable;
  search_gram_initials: SearchGramInitialsTable;
  search_gram_initials_pending: { org_id: string };
  sessions: SessionsTable;
  oidc_payloads: OidcPayloadsTable;
  app_secrets: AppSecretsTable;
  sign_in_attempts: SignInAttemptsTable;
  preferences: PreferencesTable;
  audit_events: AuditEventsTable;
  jobs: JobsTable;
  job_results: JobResultsTable;
  invitations: InvitationsTable;
  mail_outbox: MailOutboxTable;
}

/** The first characters of `sort_name` among the holders of each search pair, added by triggers on `users` (0009). */
export interface SearchGramInitialsTable {
  org_id: string;
  gram: string;
  initial: string;
}

/** Users per organisation and filter value, kept exact by triggers on `users` (0001-baseline). */
export interface UserCountsTable {
  org_id: string;
  status: string;
  is_system_admin: boolean;
  is_external: boolean;
  n: ColumnType<string | number, number, number>;
}

/** Users per organisation, filter value and UTC day of last sign-in ('-infinity' for never), kept alike (0003). */
export interface SignInCountsTable extends UserCountsTable {
  day: string;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  /** The language of mail to a user without an account (0005). */
  locale: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
}

/** A person who can sign in at the embedded identity provider. */
export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  locale: string;
  created_at: CreatedAt;
}

/** A user of one organisation: the rows of the Users page. Keyed by (org_id, id). */
export interface UsersTable {
  org_id: string;
  id: string;
  account_id: string | null;
  name: string;
  email: string;
  initials: string | null;
  first_name: string | null;
  last_name: string | null;
  status: UserStatus;
  is_external: boolean;
  is_system_admin: boolean;
  /** The name folded for people's order: accents removed, lower case. */
  sort_name: string;
  /** Lower-case name and email joined by U+001F: the one expression a search matches. */
  search_text: string;
  created_at: CreatedAt;
  /** The user's last successful sign-in; null if never. Written with each session (auth/sessions.ts). */
  last_sign_in_at: ColumnType<Date | null, Date | string | null | undefined, Date | null>;
  /** One more at every change made through the API: the ETag of `GET …/users/{id}` (a bigint, read as text). */
  version: Generated<string>;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;

export interface SessionsTable {
  /** SHA-256 of the session cookie's value: a stolen table does not yield live cookies. */
  id: string;
  account_sub: string;
  org_id: string;
  claims: ColumnType<Record<string, unknown>, string, string>;
  id_token: string | null;
  access_token_expires_at: ColumnType<Date, Date, Date>;
  expires_at: ColumnType<Date, Date, Date>;
  created_at: CreatedAt;
}

export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: ColumnType<Date | null, Date | null, Date | null>;
  consumed_at: ColumnType<Date | null, Date | null, Date | null>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

/** Sign-in attempts of one e-mail address from one client address in the current window. */
export interface SignInAttemptsTable {
  /** SHA-256 of the lower-case e-mail address and the client address. */
  key: string;
  window_started_at: ColumnType<Date, Date, Date>;
  attempts: number;
}

/** An administrator's own choices on the page, keyed by their organisation and user id. */
export interface PreferencesTable {
  org_id: string;
  user_id: string;
  /** The Users page's optional columns shown (contract USER_COLUMNS). */
  users_columns: string[];
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A change made to a user through the API, never changed afterwards (0004). Keyed by (org_id, id). */
export interface AuditEventsTable {
  org_id: string;
  id: string;
  action: AuditAction;
  actor_id: string | null;
  actor_name: string | null;
  user_id: string;
  user_name: string;
  /** The changed attributes before and after, as JSON. */
  before: ColumnType<Record<string, unknown>, string, never>;
  after: ColumnType<Record<string, unknown>, string, never>;
  request_id: string | null;
  job_id: string | null;
  created_at: CreatedAt;
}

/** An action over every user matching a filter, applied in batches (0006). Keyed by (org_id, id). */
export interface JobsTable {
  org_id: string;
  id: string;
  action: UserAction;
  is_system_admin: boolean | null;
  filter: string;
  actor_id: string;
  request_id: string | null;
  status: Generated<JobStatus>;
  total: number;
  processed: Generated<number>;
  done: Generated<number>;
  /** Users skipped so far, by reason, as JSON. */
  skipped: ColumnType<Partial<Record<SkipReason, number>>, never, string>;
  after_id: string | null;
  lease_owner: string | null;
  lease_expires_at: ColumnType<Date | null, never, Date | null>;
  attempts: Generated<number>;
  created_at: CreatedAt;
  finished_at: ColumnType<Date | null, never, Date | null>;
}
export type JobRow = Selectable<JobsTable>;

/** One user's result in a job, for its CSV. Keyed by (org_id, job_id, user_id). */
export interface JobResultsTable {
  org_id: string;
  job_id: string;
  user_id: string;
  name: string;
  email: string;
  result: 'done' | 'skipped';
  reason: SkipReason | null;
}

/** An invitation by e-mail; a user's newest is the one whose link works (0005). Keyed by (org_id, id). */
export interface InvitationsTable {
  org_id: string;
  id: string;
  user_id: string;
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  invited_by: string | null;
  expires_at: ColumnType<Date, Date, never>;
  accepted_at: ColumnType<Date | null, never, Date>;
  created_at: CreatedAt;
}

/** Mail waiting to be sent, written in the transaction that caused it (0005). Keyed by (org_id, id). */
export interface MailOutboxTable {
  org_id: string;
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: ColumnType<number, never, number>;
  next_attempt_at: ColumnType<Date, never, Date>;
  last_error: string | null;
  sent_at: ColumnType<Date | null, never, Date>;
  created_at: CreatedAt;
}
