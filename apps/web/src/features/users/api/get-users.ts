import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  JSON_API_MEDIA_TYPE,
  type UserListDocument,
  type UserListQuery,
  type UserResource,
  type UserStatus,
} from '@users-admin/contract';
import { type HttpClient, httpClient } from '../../../lib/http/http-client.ts';
import { usersListUrl } from './users-list-url.ts';

/** A user as the page works with it: the one place where snake_case becomes camelCase. */
export interface User {
  id: string;
  name: string;
  email: string;
  initials: string | null;
  firstName: string | null;
  lastName: string | null;
  status: UserStatus;
  isExternal: boolean;
  isSystemAdmin: boolean;
  /** ISO 8601; null when the user has never signed in. */
  lastSignInAt: string | null;
  /** ISO 8601. */
  createdAt: string;
}

export interface UsersList {
  users: User[];
  links: UserListDocument['links'];
  total: number;
  /** `total` is "at least": a search with more matches than the server counts (SEARCH_WINDOW). */
  totalIsLowerBound: boolean;
}

export function toUser({ id, attributes: a }: UserResource): User {
  return {
    id,
    name: a.name,
    email: a.email,
    initials: a.initials,
    firstName: a.first_name,
    lastName: a.last_name,
    status: a.status,
    isExternal: a.is_external,
    isSystemAdmin: a.is_system_admin,
    lastSignInAt: a.last_sign_in_at,
    createdAt: a.created_at,
  };
}

export async function getUsers(
  orgId: string,
  query: UserListQuery,
  { client = httpClient, signal }: { client?: HttpClient; signal?: AbortSignal } = {},
): Promise<UsersList> {
  const document = await client.get<UserListDocument>(usersListUrl(orgId, query), {
    accept: JSON_API_MEDIA_TYPE,
    signal,
  });
  if (!document || !Array.isArray(document.data)) throw new Error('The users answer is not a users list');
  return {
    users: document.data.map(toUser),
    links: document.links,
    total: document.meta.total_count,
    totalIsLowerBound: document.meta.total_count_relation === 'gte',
  };
}

/** What a total counts: the list query without its page and order. */
export type UsersFilterQuery = Omit<UserListQuery, 'pageNumber' | 'pageSize' | 'sort' | 'exactTotal'>;

/** The exact number of users a query matches (`page[total]=exact`), however many: a page of one. */
export async function getUsersTotal(
  orgId: string,
  filters: UsersFilterQuery,
  options: { client?: HttpClient; signal?: AbortSignal } = {},
): Promise<number> {
  const list = await getUsers(orgId, { ...filters, pageSize: 1, pageNumber: 1, exactTotal: true }, options);
  // A lower bound here would be shown as the exact number: better no number than a wrong one.
  if (list.totalIsLowerBound) throw new Error('The users answer did not count every match');
  return list.total;
}

export const usersQueryKeys = {
  all: ['users'] as const,
  lists: (orgId: string) => [...usersQueryKeys.all, orgId, 'list'] as const,
  list: (orgId: string, query: UserListQuery) => [...usersQueryKeys.lists(orgId), query] as const,
  totals: (orgId: string) => [...usersQueryKeys.all, orgId, 'total'] as const,
  total: (orgId: string, filters: UsersFilterQuery) => [...usersQueryKeys.totals(orgId), filters] as const,
};

export function getUsersQueryOptions(orgId: string, query: UserListQuery) {
  return queryOptions({
    queryKey: usersQueryKeys.list(orgId, query),
    queryFn: ({ signal }) => getUsers(orgId, query, { signal }),
    // Keep the current rows on screen while the next page loads, instead of an empty table.
    placeholderData: keepPreviousData,
  });
}

/**
 * The exact total of a list query, whatever its page, size and order. No placeholder: another
 * query's number must never stand in for this one's.
 */
export function getUsersTotalQueryOptions(orgId: string, query: UserListQuery) {
  const { pageNumber, pageSize, sort, exactTotal, ...filters } = query;
  return queryOptions({
    queryKey: usersQueryKeys.total(orgId, filters),
    queryFn: ({ signal }) => getUsersTotal(orgId, filters, { signal }),
  });
}

/** The users list; waits while the organisation is not known yet. */
export function useUsers(orgId: string | undefined, query: UserListQuery) {
  return useQuery({ ...getUsersQueryOptions(orgId ?? '', query), enabled: orgId !== undefined });
}
