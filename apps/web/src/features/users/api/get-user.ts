import { queryOptions, useQuery } from '@tanstack/react-query';
import { JSON_API_MEDIA_TYPE, type UserDocument, userPath } from '@users-admin/contract';
import type { HttpClient } from '../../../lib/http/http-client.ts';
import { requestJson } from '../../../lib/http/json-request.ts';
import { toUser, type User, usersQueryKeys } from './get-users.ts';

/** One user as the side sheet shows them: the list's fields and when they last signed in and joined. */
export interface UserDetails extends User {
  /** ISO 8601; null when the user has never signed in. */
  lastSignInAt: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** The ETag it was read at: a change sends it as If-Match. */
  version: string | null;
}

export async function getUser(
  orgId: string,
  id: string,
  { client, signal }: { client?: HttpClient; signal?: AbortSignal } = {},
): Promise<UserDetails> {
  const answer = await requestJson<UserDocument>(userPath(orgId, id), {
    method: 'GET',
    accept: JSON_API_MEDIA_TYPE,
    signal,
    ...(client ? { client } : {}),
  });
  return toUserDetails(answer.body, answer.headers.get('etag'));
}

/** A user answer (GET or PATCH) as the sheet shows it, with the version it came at. */
export function toUserDetails(document: UserDocument | null, version: string | null): UserDetails {
  if (!document?.data?.attributes) throw new Error('The user answer is not a user');
  const { attributes } = document.data;
  return {
    ...toUser(document.data),
    lastSignInAt: attributes.last_sign_in_at ?? null,
    createdAt: attributes.created_at,
    version,
  };
}

export const userQueryKeys = {
  user: (orgId: string, id: string) => [...usersQueryKeys.all, orgId, 'user', id] as const,
};

export function getUserQueryOptions(orgId: string, id: string) {
  return queryOptions({
    queryKey: userQueryKeys.user(orgId, id),
    queryFn: ({ signal }) => getUser(orgId, id, { signal }),
  });
}

/** One user of the organisation, for the side sheet. */
export function useUser(orgId: string, id: string) {
  return useQuery(getUserQueryOptions(orgId, id));
}
