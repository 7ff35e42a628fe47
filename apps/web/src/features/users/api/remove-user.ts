import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JSON_API_MEDIA_TYPE, userPath } from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import type { UserDetails } from './get-user.ts';
import { usersChanged } from './users-changed.ts';

/** Removes a user from the organisation against the version read (If-Match); their account stays. */
export async function removeUser(orgId: string, user: Pick<UserDetails, 'id' | 'version'>): Promise<void> {
  await requestJson<null>(userPath(orgId, user.id), {
    method: 'DELETE',
    accept: JSON_API_MEDIA_TYPE,
    headers: user.version ? { 'If-Match': user.version } : {},
  });
}

export function useRemoveUser(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserDetails) => removeUser(orgId, user),
    onSuccess: () => void usersChanged(queryClient, orgId),
  });
}
