import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE_MAX,
  BULK_IDS_MAX,
  JOB_STATUSES,
  SKIP_REASONS,
  USER_ACTIONS,
} from './user-action-values.ts';
import { orgIdSchema } from './users.ts';

// The schemas of the actions on users, jobs and audit events: the server's, and the page's lazily
// loaded parts'. Not in the package's main entry, which the first render imports: zod would come
// with them. Their plain values and types are there (user-action-values.ts).
export * from './user-action-values.ts';

export const userActionSchema = z.enum(USER_ACTIONS);
export const skipReasonSchema = z.enum(SKIP_REASONS);

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

export const jobStatusSchema = z.enum(JOB_STATUSES);

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

export const auditActionSchema = z.enum(AUDIT_ACTIONS);

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
