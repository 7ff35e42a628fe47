import { toUserListParams, type UserListQuery, usersPath } from '@users-admin/contract';

/** The users list call's address for an organisation and a list query. */
export function usersListUrl(orgId: string, query: UserListQuery): string {
  const params = toUserListParams(query).toString();
  return params ? `${usersPath(orgId)}?${params}` : usersPath(orgId);
}
