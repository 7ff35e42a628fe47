import { useCallback, useState } from 'react';
import type { InvitationRequest } from '../actions/invitation-status.tsx';
import type { User } from '../api/get-users.ts';
import type { RowAction } from '../components/user-row.tsx';
import { openSupport } from '../utils/open-support.ts';

/**
 * The rows' links under their status. Contact support opens SUPPORT_URL at once, in the click (a
 * new tab opened later would be blocked); an invitation becomes a request the page's lazily loaded
 * InvitationStatus sends. `onRowAction` stays the same function, so the memoised rows are not redrawn.
 */
export function useRowActions(supportUrl: string | undefined) {
  const [invitation, setInvitation] = useState<InvitationRequest>();
  const onRowAction = useCallback(
    (user: User, action: RowAction) => {
      if (action === 'contactSupport') openSupport(supportUrl);
      else setInvitation((last) => ({ seq: (last?.seq ?? 0) + 1, user, resend: action === 'resendInvitation' }));
    },
    [supportUrl],
  );
  return { invitation, onRowAction };
}
