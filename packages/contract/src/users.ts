import { z } from 'zod';

/** Paging limits of the users list (SPEC.md §9 and the accounts API). */
export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_OPTIONS = [25, 50, 100] as const;
export const SEARCH_MAX_LENGTH = 200;
/**
 * A search counts its matches exactly up to this many and pages through its first this many, as
 * Elasticsearch's `max_result_window` does: beyond, `meta.total_count_relation` is "gte".
 */
export const SEARCH_WINDOW = 1_000;
/** The error code of a 400 for a page that starts beyond a search's window. */
export const PAGE_BEYOND_SEARCH_WINDOW = 'page_beyond_search_window';

export const USER_STATUSES = ['active', 'inactive', 'pending', 'disabled'] as const;
export const userStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** The Last sign-in filter: in the last 30 days, not in the last 90 days (or never), never. */
export const LAST_SIGN_IN_FILTERS = ['30d', 'not90d', 'never'] as const;
export const lastSignInFilterSchema = z.enum(LAST_SIGN_IN_FILTERS);
export type LastSignInFilter = z.infer<typeof lastSignInFilterSchema>;

export const USER_SORTS = ['name', '-name'] as const;
export const userSortSchema = z.enum(USER_SORTS);
export type UserSort = z.infer<typeof userSortSchema>;

const wholeNumber = (name: string, min: number, max?: number) => {
  const accepted = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  const base = z.coerce.number<string>({ error: `${name} must be ${accepted}` });
  return z
    .string()
    .regex(/^\d{1,9}$/, { error: `${name} must be ${accepted}` })
    .pipe(
      max === undefined
        ? base.int().min(min, { error: `${name} must be ${accepted}` })
        : base
            .int()
            .min(min, { error: `${name} must be ${accepted}` })
            .max(max, { error: `${name} must be ${accepted}` }),
    );
};

/**
 * Query parameters of `GET /apis/accounts/api/v3/orgs/{org_id}/users` as they arrive on the wire.
 * Strict: an unknown `filter[...]` or `page[...]` key (or any other key) is an error, never ignored.
 */
export const userListQuerySchema = z.strictObject({
  'page[size]': wholeNumber('page[size]', 1, PAGE_SIZE_MAX).optional(),
  'page[number]': wholeNumber('page[number]', 1).optional(),
  sort: z.enum(USER_SORTS, { error: 'sort must be "name" or "-name"' }).optional(),
  'filter[query]': z
    .string({ error: 'filter[query] must be a single text value' })
    .max(SEARCH_MAX_LENGTH, {
      error: `filter[query] must be at most ${SEARCH_MAX_LENGTH} characters`,
    })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be refused.
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'filter[query] must not contain control characters' })
    .optional(),
  'filter[status]': z
    .enum(USER_STATUSES, {
      // A literal, not USER_STATUSES.join(): a call at module level would keep zod in the page's bundle.
      error: 'filter[status] must be one of active, inactive, pending, disabled',
    })
    .optional(),
  'filter[is_system_admin]': z
    .enum(['true', 'false'], { error: 'filter[is_system_admin] must be "true" or "false"' })
    .optional(),
  'filter[is_external]': z
    .enum(['true', 'false'], { error: 'filter[is_external] must be "true" or "false"' })
    .optional(),
  'filter[last_sign_in]': z
    .enum(LAST_SIGN_IN_FILTERS, { error: 'filter[last_sign_in] must be one of 30d, not90d, never' })
    .optional()
    .describe('"30d": signed in during the last 30 days; "not90d": not in the last 90 days, or never; "never": never.'),
  'page[total]': z
    .enum(['exact'], { error: 'page[total] must be "exact"' })
    .optional()
    .describe(
      '"exact" counts every match of a search, however many (it may take about a second for 1,000,000 users); without it a search counts up to 1,000.',
    ),
});
export type UserListQueryParams = z.input<typeof userListQuerySchema>;

/** The list query in the form the server works with, defaults applied. */
export interface UserListQuery {
  pageSize: number;
  pageNumber: number;
  sort?: UserSort;
  search?: string;
  status?: UserStatus;
  isSystemAdmin?: boolean;
  isExternal?: boolean;
  lastSignIn?: LastSignInFilter;
  /** Count every match of a search (`page[total]=exact`), not only up to SEARCH_WINDOW. */
  exactTotal?: boolean;
}

export function toUserListQuery(params: z.output<typeof userListQuerySchema>): UserListQuery {
  const query: UserListQuery = {
    pageSize: params['page[size]'] ?? PAGE_SIZE_DEFAULT,
    pageNumber: params['page[number]'] ?? 1,
  };
  if (params.sort) query.sort = params.sort;
  if (params['filter[query]']) query.search = params['filter[query]'];
  if (params['filter[status]']) query.status = params['filter[status]'];
  if (params['filter[is_system_admin]']) {
    query.isSystemAdmin = params['filter[is_system_admin]'] === 'true';
  }
  if (params['filter[is_external]']) query.isExternal = params['filter[is_external]'] === 'true';
  if (params['filter[last_sign_in]']) query.lastSignIn = params['filter[last_sign_in]'];
  if (params['page[total]'] === 'exact') query.exactTotal = true;
  return query;
}

/** Writes a list query as wire parameters, leaving defaults out; the inverse of `toUserListQuery`. */
export function toUserListParams(query: Partial<UserListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.pageSize !== undefined && query.pageSize !== PAGE_SIZE_DEFAULT) {
    params.set('page[size]', String(query.pageSize));
  }
  if (query.pageNumber !== undefined && query.pageNumber !== 1) {
    params.set('page[number]', String(query.pageNumber));
  }
  if (query.sort) params.set('sort', query.sort);
  if (query.search) params.set('filter[query]', query.search);
  if (query.status) params.set('filter[status]', query.status);
  if (query.isSystemAdmin !== undefined) {
    params.set('filter[is_system_admin]', String(query.isSystemAdmin));
  }
  if (query.isExternal !== undefined) params.set('filter[is_external]', String(query.isExternal));
  if (query.lastSignIn) params.set('filter[last_sign_in]', query.lastSignIn);
  if (query.exactTotal) params.set('page[total]', 'exact');
  return params;
}

export const orgIdSchema = z.uuid({ error: 'org_id must be an organisation id (a UUID)' });
export const userListPathSchema = z.strictObject({ org_id: orgIdSchema });

/** A user as the accounts API sends it: a JSON:API resource with snake_case attributes. */
export const userAttributesSchema = z.object({
  name: z.string(),
  email: z.string(),
  initials: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  status: userStatusSchema,
  is_external: z.boolean(),
  is_system_admin: z.boolean(),
  /** ISO 8601; null when the user has never signed in. */
  last_sign_in_at: z.string().nullable(),
  /** ISO 8601: when the user joined the organisation. */
  created_at: z.string(),
});
export type UserAttributes = z.infer<typeof userAttributesSchema>;

export const userResourceSchema = z.object({
  type: z.literal('users'),
  id: z.string(),
  attributes: userAttributesSchema,
});
export type UserResource = z.infer<typeof userResourceSchema>;

export const listLinksSchema = z.object({
  self: z.string(),
  first: z.string(),
  /** Absent when the total is a lower bound, or the last page lies beyond the search window. */
  last: z.string().optional(),
  prev: z.string().optional(),
  next: z.string().optional(),
});

export const userListDocumentSchema = z.object({
  data: z.array(userResourceSchema),
  links: listLinksSchema,
  meta: z.object({
    total_count: z.number().int().nonnegative(),
    /** "eq": total_count is exact; "gte": at least that many match (a search past SEARCH_WINDOW). */
    total_count_relation: z.enum(['eq', 'gte']),
  }),
});
export type UserListDocument = z.infer<typeof userListDocumentSchema>;

/** The answer of `GET /apis/accounts/api/v3/orgs/{org_id}/users/{id}`: one user, with the list's attributes. */
export const userDocumentSchema = z.object({ data: userResourceSchema });
export type UserDocument = z.infer<typeof userDocumentSchema>;
export const userPathSchema = z.strictObject({ org_id: orgIdSchema, id: z.string() });

export const usersPath = (orgId: string) => `/apis/accounts/api/v3/orgs/${encodeURIComponent(orgId)}/users`;
export const userPath = (orgId: string, id: string) => `${usersPath(orgId)}/${encodeURIComponent(id)}`;
