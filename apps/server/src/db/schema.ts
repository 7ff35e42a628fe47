import type { UserStatus } from '@users-admin/contract';
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable } from 'kysely';

/** Table types of the database, kept in step with the migrations in ./migrations. */
export interface Database {
  organizations: OrganizationsTable;
  accounts: AccountsTable;
  users: UsersTable;
  sessions: SessionsTable;
  oidc_payloads: OidcPayloadsTable;
  app_secrets: AppSecretsTable;
  user_counts: UserCountsTable;
  org_data_versions: OrgDataVersionsTable;
  user_search_counts: UserSearchCountsTable;
  user_search_grams: UserSearchGramsTable;
  user_search_grams_pending: UserSearchGramsPendingTable;
  user_search_spans: UserSearchSpansTable;
  user_kept_searches: UserKeptSearchesTable;
  user_page_buckets: UserPageBucketsTable;
  user_page_bucket_searches: UserPageBucketSearchesTable;
  user_part_bounds: UserPartBoundsTable;
  user_part_grams: UserPartGramsTable;
  user_part_searches: UserPartSearchesTable;
  user_search_lists: UserSearchListsTable;
  sign_in_attempts: SignInAttemptsTable;
}

/**
 * An organisation's users in one order, cut into buckets of consecutive users (migration 0013): the
 * bucket's first key and how many of its users have each status and user type (`n[1..8]`).
 */
export interface UserPageBucketsTable {
  org_id: string;
  by_name: boolean;
  sort_name: string;
  id: string;
  n: number[];
  /** A new value (from a sequence) with every change to the bucket's users or its cut (0014). */
  version: Generated<string>;
}

/** A search's matches in one page bucket per status and user type, for one version of the bucket (0014). */
export interface UserPageBucketSearchesTable {
  org_id: string;
  search: string;
  by_name: boolean;
  sort_name: string;
  id: string;
  version: ColumnType<string, string | number, string | number>;
  n: number[];
  counted_at: Generated<Date>;
  /** Counted by the organisation's bulk load or recount, and kept beyond its limit of searches (0022). */
  found_at_load: Generated<boolean>;
}

/** The first key of each part of an organisation's users in one order, cut by a load or recount (0024). */
export interface UserPartBoundsTable {
  org_id: string;
  by_name: boolean;
  sort_name: string;
  id: string;
}

/** How many users of one part of an order hold a 1- to 3-character gram, per status and user type (0024). */
export interface UserPartGramsTable {
  org_id: string;
  by_name: boolean;
  gram: string;
  /** The part's first key (`user_part_bounds`). */
  sort_name: string;
  id: string;
  n: number[];
}

/** How many users of one part of an order hold a heavy search found at a load or recount (0024). */
export interface UserPartSearchesTable {
  org_id: string;
  by_name: boolean;
  search: string;
  sort_name: string;
  id: string;
  n: number[];
}

/** The ordered ids of a sparse search's matches (search, filters, order) at one data version. */
export interface UserSearchListsTable {
  org_id: string;
  list_key: string;
  version: ColumnType<string | number, number | string, number | string>;
  ids: string[];
  built_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Users per organisation, status and user type, kept exact by triggers on `users`. */
export interface UserCountsTable {
  org_id: string;
  status: string;
  is_system_admin: boolean;
  n: ColumnType<string | number, number, number>;
}

/** Bumped by the same triggers on every change of an organisation's users. */
export interface OrgDataVersionsTable {
  org_id: string;
  version: ColumnType<string | number, number, number>;
}

/** Counts of searches, valid for the organisation's data version they were taken at. */
export interface UserSearchCountsTable {
  org_id: string;
  version: ColumnType<string | number, number | string, number | string>;
  query_key: string;
  n: ColumnType<string | number, number, number>;
  created_at: CreatedAt;
}

/** How many users of an organisation, status and user type hold a 1–3 character substring. */
export interface UserSearchGramsTable {
  org_id: string;
  gram: string;
  status: string;
  is_system_admin: boolean;
  n: ColumnType<string | number, number, number>;
}

/**
 * The first and the last `sort_name` of an organisation's users who hold a 1–3 character substring
 * (migration 0016): as wide or wider than they are, never narrower.
 */
export interface UserSearchSpansTable {
  org_id: string;
  gram: string;
  first_sort: string;
  last_sort: string;
}

/** How many users of an organisation, status and user type hold a search that many users hold. */
export interface UserKeptSearchesTable {
  org_id: string;
  search: string;
  status: string;
  is_system_admin: boolean;
  n: ColumnType<string | number, number | string, number>;
  /** Found heavy by a bulk load or recount (migration 0012), not counted for a request. */
  found_at_load: Generated<boolean>;
}

/** Organisations being bulk-loaded: their grams are not kept yet (searches count the rows). */
export interface UserSearchGramsPendingTable {
  org_id: string;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
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
  /** The search text without its e-mail domain, kept by the database (migration 0007). */
  search_head: GeneratedAlways<string>;
  created_at: CreatedAt;
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
