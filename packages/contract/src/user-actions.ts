import { z } from 'zod';
import { orgIdSchema, usersPath } from './users.ts';

/** At most this many users named by id in one bulk call; more, or "all matching", is a job. */
export const BULK_IDS_MAX = 1000;
/** Seconds an invitation link stays valid unless INVITATION_TTL says otherwise (7 days). */
export const INVITATION_TTL_DEFAULT = 604_800;
/** At most one invitation to a user in this many seconds (429 otherwise). */
export const INVITATION_INTERVAL_SECONDS = 60;

/** What an administrator can do to users, one or many. */
export const USER_ACTIONS = ['invite', 'set_user_type', 'disable', 'enable', 'remove'] as const;
export const userActionSchema = z.enum(USER_ACTIONS);
export type UserAction = z.infer<typeof userActionSchema>;

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
export const skipReasonSchema = z.enum(SKIP_REASONS);
export type SkipReason = z.infer<typeof skipReasonSchema>;

/**
 * `PATCH …/users/{id}` (with `If-Match`): the user type and/or the status. Status `disabled`
 * disables, `active` enables a disabled user.
 */
export const userPatchDocumentSchema = z.strictObject({
  data: z.strictObject({
    type: z.literal('users', { error: 'data.type must be "users"' }),
    id: z.string().optional(),
    attributes: z
      .strictObject({
        is_system_admin: z.boolean({ error: 'is_system_admin must be true or false' }).optional(),
        status: z.enum(['active', 'disabled'], { error: 'status must be "active" or "disabled"' }).optional(),
      })
      .refine((a) => a.is_system_admin !== undefined || a.status !== undefined, {
        error: 'attributes must change is_system_admin or status',
      }),
  }),
});
export type UserPatchDocument = z.infer<typeof userPatchDocumentSchema>;

/** `POST …/users/{id}/invitation` answers 201 with the new invitation; the one before stops working. */
export const invitationDocumentSchema = z.object({
  data: z.object({
    type: z.literal('invitations'),
    id: z.string(),
    attributes: z.object({
      user_id: z.string(),
      email: z.string(),
      /** ISO 8601. */
      expires_at: z.string(),
      created_at: z.string(),
    }),
  }),
});
export type InvitationDocument = z.infer<typeof invitationDocumentSchema>;

/**
 * `POST …/users/bulk`: one action over users named by id (answered at once, 200) or over every
 * user matching `filter`, the list's own query string (a job, 202 with its `Location`).
 */
export const bulkActionDocumentSchema = z.strictObject({
  data: z.strictObject({
    type: z.literal('bulk-actions', { error: 'data.type must be "bulk-actions"' }),
    attributes: z
      .strictObject({
        action: userActionSchema,
        /** For `set_user_type`: the user type to give. */
        is_system_admin: z.boolean().optional(),
        ids: z
          .array(z.string().max(100))
          .min(1, { error: 'ids must name at least one user' })
          .max(BULK_IDS_MAX, { error: `ids may name at most ${BULK_IDS_MAX} users; use filter for more` })
          .optional(),
        /** The list's query string (`filter[status]=active&filter[query]=ann`); paging and sort are ignored. */
        filter: z.string().max(2000).optional(),
      })
      .refine((a) => (a.ids === undefined) !== (a.filter === undefined), {
        error: 'name the users either by ids or by filter',
      })
      .refine((a) => (a.action === 'set_user_type') === (a.is_system_admin !== undefined), {
        error: 'is_system_admin is required for set_user_type, and only for it',
      }),
  }),
});
export type BulkActionDocument = z.infer<typeof bulkActionDocumentSchema>;

export const userActionResultSchema = z.object({
  id: z.string(),
  result: z.enum(['done', 'skipped']),
  reason: skipReasonSchema.optional(),
  /** The reason in words, for a person. */
  detail: z.string().optional(),
});
export type UserActionResult = z.infer<typeof userActionResultSchema>;

/** The 200 of a bulk call by ids: one result per user, in the order asked. */
export const bulkResultDocumentSchema = z.object({
  data: z.object({
    type: z.literal('bulk-results'),
    attributes: z.object({
      action: userActionSchema,
      done: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      results: z.array(userActionResultSchema),
    }),
  }),
});
export type BulkResultDocument = z.infer<typeof bulkResultDocumentSchema>;

export const JOB_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** `GET …/jobs/{id}`: an action over every matching user, applied in batches. */
export const jobDocumentSchema = z.object({
  data: z.object({
    type: z.literal('jobs'),
    id: z.string(),
    attributes: z.object({
      action: userActionSchema,
      is_system_admin: z.boolean().nullable(),
      status: jobStatusSchema,
      /** The users matching when the job was made. */
      total: z.number().int().nonnegative(),
      processed: z.number().int().nonnegative(),
      done: z.number().int().nonnegative(),
      /** Users skipped, by reason. */
      skipped: z.partialRecord(skipReasonSchema, z.number().int().nonnegative()),
      created_at: z.string(),
      finished_at: z.string().nullable(),
    }),
    links: z.object({ self: z.string(), results: z.string() }),
  }),
});
export type JobDocument = z.infer<typeof jobDocumentSchema>;

/** Audit events are kept per organisation and never changed through the API. */
export const AUDIT_ACTIONS = [...USER_ACTIONS, 'accept_invitation'] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

export const auditEventSchema = z.object({
  type: z.literal('audit-events'),
  id: z.string(),
  attributes: z.object({
    action: auditActionSchema,
    /** Who acted: the administrator (for `accept_invitation`, the user). */
    actor_id: z.string().nullable(),
    actor_name: z.string().nullable(),
    user_id: z.string(),
    user_name: z.string(),
    /** The user's changed attributes before and after (`{"is_system_admin": false}`). */
    before: z.record(z.string(), z.unknown()),
    after: z.record(z.string(), z.unknown()),
    request_id: z.string().nullable(),
    job_id: z.string().nullable(),
    created_at: z.string(),
  }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const AUDIT_PAGE_SIZE_MAX = 100;
export const auditEventsQuerySchema = z.strictObject({
  'page[size]': z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).optional(),
  'page[number]': z.coerce.number().int().min(1).max(10_000).optional(),
  'filter[user_id]': z.string().max(100).optional(),
  'filter[actor_id]': z.string().max(100).optional(),
  'filter[action]': auditActionSchema.optional(),
  'filter[since]': z.iso.datetime({ error: 'filter[since] must be an ISO 8601 date and time' }).optional(),
});

/** `GET …/audit-events`: newest first. */
export const auditEventListDocumentSchema = z.object({
  data: z.array(auditEventSchema),
  links: z.object({ self: z.string(), next: z.string().optional(), prev: z.string().optional() }),
});
export type AuditEventListDocument = z.infer<typeof auditEventListDocumentSchema>;

export const jobPathSchema = z.strictObject({ org_id: orgIdSchema, id: z.string() });

export const bulkPath = (orgId: string) => `${usersPath(orgId)}/bulk`;
export const invitationPath = (orgId: string, userId: string) =>
  `${usersPath(orgId)}/${encodeURIComponent(userId)}/invitation`;
export const jobPath = (orgId: string, jobId: string) =>
  `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/jobs/${encodeURIComponent(jobId)}`;
export const auditEventsPath = (orgId: string) =>
  `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/audit-events`;
