import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type AuditEvent,
  type AuditEventListDocument,
  auditEventsPath,
  JSON_API_MEDIA_TYPE,
} from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { usersQueryKeys } from './get-users.ts';

/** How many of a user's latest changes the sheet shows. */
export const ACTIVITY_SIZE = 10;

export type ActivityEvent = AuditEvent['attributes'] & { id: string };

/** A user's latest changes, newest first. */
export async function getUserActivity(orgId: string, userId: string, signal?: AbortSignal): Promise<ActivityEvent[]> {
  const params = new URLSearchParams({ 'filter[user_id]': userId, 'page[size]': String(ACTIVITY_SIZE) });
  const answer = await requestJson<AuditEventListDocument>(`${auditEventsPath(orgId)}?${params}`, {
    method: 'GET',
    accept: JSON_API_MEDIA_TYPE,
    signal,
  });
  if (!Array.isArray(answer.body?.data)) throw new Error('The audit answer is not a list');
  return answer.body.data.map((event) => ({ ...event.attributes, id: event.id }));
}

export function getUserActivityQueryOptions(orgId: string, userId: string) {
  return queryOptions({
    // Under the user's key: an action on them reads it again.
    queryKey: [...usersQueryKeys.all, orgId, 'user', userId, 'activity'] as const,
    queryFn: ({ signal }) => getUserActivity(orgId, userId, signal),
  });
}

export function useUserActivity(orgId: string, userId: string) {
  return useQuery(getUserActivityQueryOptions(orgId, userId));
}
