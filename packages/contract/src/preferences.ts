import { z } from 'zod';
import { orgIdSchema } from './users.ts';

/** The Users page's optional columns; the User column is always shown. */
export const USER_COLUMNS = ['data_source', 'status', 'user_type', 'last_sign_in', 'created'] as const;
export const userColumnSchema = z.enum(USER_COLUMNS);
export type UserColumn = z.infer<typeof userColumnSchema>;
/** SPEC.md's columns: Last sign-in and Created are hidden until an administrator chooses them. */
export const DEFAULT_USER_COLUMNS: readonly UserColumn[] = ['data_source', 'status', 'user_type'];

/** An administrator's choices on the Users page, kept on the server so that they follow them to any browser. */
export const preferencesAttributesSchema = z.strictObject({
  /** The optional columns shown, in USER_COLUMNS order. */
  users_columns: z
    .array(userColumnSchema, { error: 'users_columns must be a list of column names' })
    // A literal, not USER_COLUMNS.length: a property read at module level keeps zod in the page's bundle.
    .max(5),
});
export type PreferencesAttributes = z.infer<typeof preferencesAttributesSchema>;

/** `GET` and `PATCH /apis/accounts/api/v3/orgs/{org_id}/preferences`: the signed-in administrator's own preferences. */
export const preferencesDocumentSchema = z.strictObject({
  data: z.strictObject({
    type: z.literal('preferences', { error: 'data.type must be "preferences"' }),
    /** The signed-in user's id; ignored in a PATCH. */
    id: z.string().optional(),
    attributes: preferencesAttributesSchema,
  }),
});
export type PreferencesDocument = z.infer<typeof preferencesDocumentSchema>;
export const preferencesPathSchema = z.strictObject({ org_id: orgIdSchema });

export const preferencesPath = (orgId: string) => `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/preferences`;
