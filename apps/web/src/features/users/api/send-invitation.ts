import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type InvitationDocument, invitationPath, JSON_API_MEDIA_TYPE } from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { usersChanged } from './users-changed.ts';

/** Sends a user an invitation, or a new one: the link sent before stops working. Answers when it expires. */
export async function sendInvitation(orgId: string, userId: string): Promise<{ expiresAt: string | undefined }> {
  const answer = await requestJson<InvitationDocument>(invitationPath(orgId, userId), {
    method: 'POST',
    accept: JSON_API_MEDIA_TYPE,
  });
  return { expiresAt: answer.body?.data.attributes.expires_at };
}

/** The user becomes pending: the lists and the user are read again. */
export function useSendInvitation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => sendInvitation(orgId, userId),
    onSuccess: () => void usersChanged(queryClient, orgId),
  });
}
