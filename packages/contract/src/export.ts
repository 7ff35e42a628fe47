import { z } from 'zod';
import { orgIdSchema, userListQuerySchema, usersPath } from './users.ts';

/** The columns of a CSV export, in the order written: the User column is two, name and email. */
export const EXPORT_COLUMNS = [
  'name',
  'email',
  'data_source',
  'status',
  'user_type',
  'last_sign_in',
  'created',
] as const;
export const exportColumnSchema = z.enum(EXPORT_COLUMNS);
export type ExportColumn = z.infer<typeof exportColumnSchema>;

/** Ids a selection may name in an export, at most (a page's ticks, or the unticked after "Select all"). */
export const EXPORT_IDS_MAX = 10_000;

const label = z.string().max(200, { error: 'a label must be at most 200 characters' });
const ids = z.array(z.string().max(64)).max(EXPORT_IDS_MAX, { error: `at most ${EXPORT_IDS_MAX} ids` });

/**
 * The body of `POST /apis/accounts/api/v3/orgs/{org_id}/users/export`, whose query string is the
 * list's (filters, search, sort; no page). The page's words come with it, so its translations stay in one place.
 */
export const exportRequestSchema = z.strictObject({
  columns: z
    .array(z.strictObject({ key: exportColumnSchema, header: label }))
    .min(1, { error: 'columns must name at least one column' })
    // A literal, not EXPORT_COLUMNS.length: a property read at module level keeps zod in the page's bundle.
    .max(7),
  /** The words of the values that are not text: data source, status, user type, and a never-signed-in user. */
  values: z.strictObject({
    platform: label,
    third_party: label,
    active: label,
    inactive: label,
    pending: label,
    disabled: label,
    system_admin: label,
    user: label,
    never: label,
  }),
  /** Absent: every user of the view. `some`: these of them. `all`: every user of the view but these. */
  selection: z
    .discriminatedUnion('mode', [
      z.strictObject({ mode: z.literal('some'), ids }),
      z.strictObject({ mode: z.literal('all'), excluded: ids }),
    ])
    .optional(),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;
export const exportPathSchema = z.strictObject({ org_id: orgIdSchema });
/** The export's query string: the list's search, filters and order; every page. */
// Marked pure: a method call at module level would keep zod (and its eval probe, which the CSP reports) in the page.
export const exportQuerySchema = /* @__PURE__ */ userListQuerySchema.omit({
  'page[size]': true,
  'page[number]': true,
  'page[total]': true,
});

/** The answer's header that says how many users the CSV holds, before its rows arrive (for progress). */
export const EXPORT_COUNT_HEADER = 'x-total-count';
export const exportPath = (orgId: string) => `${usersPath(orgId)}/export`;
