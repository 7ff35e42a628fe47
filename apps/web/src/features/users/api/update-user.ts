import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JSON_API_MEDIA_TYPE, type UserDocument, type UserPatchDocument, userPath } from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { toUserDetails, type UserDetails, userQueryKeys } from './get-user.ts';
import { usersChanged } from './users-changed.ts';

export type UserChanges = UserPatchDocument['data']['attributes'];

/** Changes a user's type or status against the version read (If-Match): 412 if they changed meanwhile. */
export async function updateUser(orgId: string, user: Pick<UserDetails, 'id' | 'version'>, changes: UserChanges) {
  const document: UserPatchDocument = { data: { type: 'users', id: user.id, attributes: changes } };
  const answer = await requestJson<UserDocument>(userPath(orgId, user.id), {
    method: 'PATCH',
    accept: JSON_API_MEDIA_TYPE,
    body: document,
    headers: user.version ? { 'If-Match': user.version } : {},
  });
  return toUserDetails(answer.body, answer.headers.get('etag'));
}

/** The sheet's changes to one user: the answer is the user as now, and the lists are read again. */
export function useUpdateUser(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, changes }: { user: UserDetails; changes: UserChanges }) => updateUser(orgId, user, changes),
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKeys.user(orgId, user.id), user);
      void usersChanged(queryClient, orgId);
    },
  });
}
