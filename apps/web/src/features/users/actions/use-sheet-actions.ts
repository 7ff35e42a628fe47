import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UserDetails, userQueryKeys } from '../api/get-user.ts';
import { useRemoveUser } from '../api/remove-user.ts';
import { useSendInvitation } from '../api/send-invitation.ts';
import { type UserChanges, useUpdateUser } from '../api/update-user.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { actionErrorText, isStale } from './action-error.ts';

export type SheetAction = 'setUserType' | 'disable' | 'enable' | 'remove';

/** What the sheet says after an action: done, or why not. */
export interface SheetMessage {
  done: boolean;
  text: string;
}

const changesOf = (action: Exclude<SheetAction, 'remove'>, isSystemAdmin: boolean): UserChanges =>
  action === 'setUserType'
    ? { is_system_admin: isSystemAdmin }
    : { status: action === 'disable' ? 'disabled' : 'active' };

/** Sends an invitation for each new press of the sheet's link, and says how it went. */
function useSheetInvitations(orgId: string, user: UserDetails, presses: number, say: (m: SheetMessage) => void) {
  const { t } = useTranslation();
  const invite = useSendInvitation(orgId);
  const handled = useRef(presses);
  useEffect(() => {
    if (presses === handled.current) return;
    handled.current = presses;
    const name = revealBidiControls(user.name);
    invite.mutate(user.id, {
      onSuccess: () =>
        say({
          done: true,
          text: t(user.status === 'pending' ? 'userActions.row.resent' : 'userActions.row.sent', { name }),
        }),
      onError: (error) =>
        say({ done: false, text: `${t('userActions.row.notSent', { name })} ${actionErrorText(error, t)}` }),
    });
  }, [presses, invite, user, say, t]);
}

/**
 * The state of a user's actions in their sheet: which one is being asked, the user type chosen, and
 * the message after it. Each change is made against the version read (If-Match); a user changed
 * meanwhile (412) is read again, and the message says so.
 */
export function useSheetActions(orgId: string, user: UserDetails, invitations: number, onRemoved: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<SheetAction>();
  const [isSystemAdmin, setIsSystemAdmin] = useState(!user.isSystemAdmin);
  const [message, setMessage] = useState<SheetMessage>();
  const update = useUpdateUser(orgId);
  const remove = useRemoveUser(orgId);
  useSheetInvitations(orgId, user, invitations, setMessage);

  const failed = (error: unknown) => {
    if (isStale(error)) void queryClient.invalidateQueries({ queryKey: userQueryKeys.user(orgId, user.id) });
    setAsking(undefined);
    setMessage({ done: false, text: actionErrorText(error, t) });
  };
  const confirm = (action: SheetAction) => {
    if (action === 'remove') return remove.mutate(user, { onSuccess: onRemoved, onError: failed });
    update.mutate(
      { user, changes: changesOf(action, isSystemAdmin) },
      {
        onSuccess: () => {
          setAsking(undefined);
          setMessage({ done: true, text: t(`userActions.sheet.done.${action}`) });
        },
        onError: failed,
      },
    );
  };
  const ask = (action: SheetAction) => {
    setMessage(undefined);
    // A change of type offers the other type first.
    setIsSystemAdmin(!user.isSystemAdmin);
    setAsking(action);
  };

  return {
    asking,
    ask,
    cancel: () => setAsking(undefined),
    confirm,
    pending: update.isPending || remove.isPending,
    isSystemAdmin,
    setIsSystemAdmin,
    message,
  };
}
