import {
  LAST_SIGN_IN_FILTERS,
  type LastSignInFilter,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_OPTIONS,
  SEARCH_MAX_LENGTH,
  type UserListQuery,
  type UserSort,
  type UserStatus,
} from '@users-admin/contract';

// The list query as the address bar holds it (SPEC.md §2). No React here: the early calls
// (src/early-calls.ts) read the address with it before the page's code has loaded.

/** The statuses the filter offers (SPEC.md §2); any other `status` in the URL is ignored. */
export const STATUS_FILTERS = ['active', 'inactive', 'pending'] as const satisfies readonly UserStatus[];

/** The page's query parameters, as they appear in the address bar. */
export const URL_KEYS = {
  page: 'page',
  pageSize: 'pageSize',
  search: 'search',
  status: 'status',
  isSystemAdmin: 'isSystemAdmin',
  isExternal: 'isExternal',
  lastSignIn: 'lastSignIn',
  sort: 'sort',
} as const;

const MAX_PAGE = 999_999_999;

export interface UsersFilters {
  status?: UserStatus;
  isSystemAdmin?: boolean;
  isExternal?: boolean;
  lastSignIn?: LastSignInFilter;
}

/** The filters of the popover, in their order; each is one key of the list query. */
export const FILTER_KEYS = [
  'status',
  'isSystemAdmin',
  'isExternal',
  'lastSignIn',
] as const satisfies readonly (keyof UsersFilters & keyof UserListQuery)[];

const readBoolean = (value: string | null) => (value === 'true' || value === 'false' ? value === 'true' : undefined);

/**
 * Reads the list query from the address bar. Anything missing or invalid falls back to its default
 * instead of failing: a shared or hand-edited link always opens a working page.
 */
export function parseUsersSearchParams(params: URLSearchParams): UserListQuery {
  const query: UserListQuery = { pageNumber: 1, pageSize: PAGE_SIZE_DEFAULT };

  const page = params.get(URL_KEYS.page);
  if (page && /^\d{1,9}$/.test(page) && Number(page) >= 1 && Number(page) <= MAX_PAGE) query.pageNumber = Number(page);

  const pageSize = Number(params.get(URL_KEYS.pageSize));
  if ((PAGE_SIZE_OPTIONS as readonly number[]).includes(pageSize)) query.pageSize = pageSize;

  const search = params.get(URL_KEYS.search)?.trim();
  if (search && search.length <= SEARCH_MAX_LENGTH) query.search = search;

  const status = params.get(URL_KEYS.status);
  if ((STATUS_FILTERS as readonly string[]).includes(status ?? '')) query.status = status as UserStatus;

  const isSystemAdmin = readBoolean(params.get(URL_KEYS.isSystemAdmin));
  if (isSystemAdmin !== undefined) query.isSystemAdmin = isSystemAdmin;

  const isExternal = readBoolean(params.get(URL_KEYS.isExternal));
  if (isExternal !== undefined) query.isExternal = isExternal;

  const lastSignIn = params.get(URL_KEYS.lastSignIn);
  if ((LAST_SIGN_IN_FILTERS as readonly string[]).includes(lastSignIn ?? '')) {
    query.lastSignIn = lastSignIn as LastSignInFilter;
  }

  const sort = params.get(URL_KEYS.sort);
  if (sort === 'name' || sort === '-name') query.sort = sort;

  return query;
}

/**
 * Writes the list query into `base` (other parameters are kept), leaving defaults out so that the
 * plain page has a plain address.
 */
export function writeUsersSearchParams(query: UserListQuery, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const key of Object.values(URL_KEYS)) params.delete(key);
  if (query.pageNumber !== 1) params.set(URL_KEYS.page, String(query.pageNumber));
  if (query.pageSize !== PAGE_SIZE_DEFAULT) params.set(URL_KEYS.pageSize, String(query.pageSize));
  if (query.search) params.set(URL_KEYS.search, query.search);
  if (query.status) params.set(URL_KEYS.status, query.status);
  if (query.isSystemAdmin !== undefined) params.set(URL_KEYS.isSystemAdmin, String(query.isSystemAdmin));
  if (query.isExternal !== undefined) params.set(URL_KEYS.isExternal, String(query.isExternal));
  if (query.lastSignIn) params.set(URL_KEYS.lastSignIn, query.lastSignIn);
  if (query.sort) params.set(URL_KEYS.sort, query.sort);
  return params;
}

/** Unsorted → ascending → descending → ascending … (SPEC.md §4). */
export function nextSort(sort: UserSort | undefined): UserSort {
  return sort === 'name' ? '-name' : 'name';
}

/** How many of the popover's filters are set: the Filter button's badge. */
export function activeFilterCount(query: UserListQuery): number {
  return FILTER_KEYS.filter((key) => query[key] !== undefined).length;
}
