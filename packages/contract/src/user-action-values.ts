import { usersPath } from './users.ts';

// The plain values of the actions on users: no zod here, so the page may import them in its first
// render; their schemas are in user-actions.ts (its own entry, `@users-admin/contract/user-actions`).

/** At most this many users named by id in one bulk call; more, or "all matching", is a job. */
export const BULK_IDS_MAX = 1000;
/** Seconds an invitation link stays valid unless INVITATION_TTL says otherwise (7 days). */
export const INVITATION_TTL_DEFAULT = 604_800;
/** At most one invitation to a user in this many seconds (429 otherwise). */
export const INVITATION_INTERVAL_SECONDS = 60;

/** What an administrator can do to users, one or many. */
export const USER_ACTIONS = ['invite', 'set_user_type', 'disable', 'enable', 'remove'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/**
 * Why an action left a user as they were. Each is also the `code` of the 409 (or 429) a
 * single-user call answers for the same reason.
 */
export const SKIP_REASONS = [
  /** An administrator cannot disable, remove or demote themselves. */
  'self',
  /** The organisation must keep at least one active System Admin. */
  'last_system_admin',
  /** Third-party users are managed by their identity provider: no invitation, disable, enable or removal here. */
  'third_party',
  /** An invitation goes only to an inactive or pending user. */
  'not_invitable',
  /** Enable applies only to a disabled user. */
  'not_disabled',
  /** The user already is what the action asks (a System Admin made System Admin, a disabled user disabled). */
  'unchanged',
  /** The user was invited less than INVITATION_INTERVAL_SECONDS ago. */
  'recently_invited',
  /** No such user in the organisation (removed meanwhile). */
  'not_found',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const JOB_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Audit events are kept per organisation and never changed through the API. */
export const AUDIT_ACTIONS = ['invite', 'set_user_type', 'disable', 'enable', 'remove', 'accept_invitation'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_PAGE_SIZE_MAX = 100;

export const bulkPath = (orgId: string) => `${usersPath(orgId)}/bulk`;
export const invitationPath = (orgId: string, userId: string) =>
  `${usersPath(orgId)}/${encodeURIComponent(userId)}/invitation`;
export const jobPath = (orgId: string, jobId: string) =>
  `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/jobs/${encodeURIComponent(jobId)}`;
export const auditEventsPath = (orgId: string) =>
  `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/audit-events`;
