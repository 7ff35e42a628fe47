import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendInvitation } from '../api/send-invitation.ts';
import { actionErrorText } from './action-error.ts';

/** A row's "Send invitation" or "Resend invitation", each press a new request. */
export interface InvitationRequest {
  /** Counts the presses: each new one sends. */
  seq: number;
  user: { id: string; name: string };
  resend: boolean;
}

/** A sent invitation's message stays this long; a refusal stays until it is closed. */
const SENT_MESSAGE_MS = 8000;

/**
 * Sends the invitations the rows ask for, and says how each went in a toast at the top right: sent
 * (again, and the old link no longer works), or why not, in words (429: invited less than a minute ago).
 */
export function InvitationStatus({ orgId, request }: { orgId: string; request: InvitationRequest }) {
  const { t } = useTranslation();
  const send = useSendInvitation(orgId);
  const [message, setMessage] = useState<{ sent: boolean; text: string }>();
  const handled = useRef(0);

  useEffect(() => {
    if (request.seq === handled.current) return;
    handled.current = request.seq;
    const name = request.user.name;
    send.mutate(request.user.id, {
      onSuccess: () =>
        setMessage({
          sent: true,
          text: t(request.resend ? 'userActions.row.resent' : 'userActions.row.sent', { name }),
        }),
      onError: (error) =>
        setMessage({ sent: false, text: `${t('userActions.row.notSent', { name })} ${actionErrorText(error, t)}` }),
    });
  }, [request, send, t]);

  return (
    <Snackbar
      open={message !== undefined}
      autoHideDuration={message?.sent ? SENT_MESSAGE_MS : null}
      onClose={(_event, reason) => {
        if (reason === 'timeout') setMessage(undefined);
      }}
    >
      {/* Snackbar needs one element that holds a ref, even while it closes. */}
      <div>
        {message && (
          <Alert
            severity={message.sent ? 'success' : 'error'}
            role={message.sent ? 'status' : 'alert'}
            onClose={() => setMessage(undefined)}
            sx={{ minWidth: 272, maxWidth: 480, boxShadow: 3 }}
          >
            {message.text}
          </Alert>
        )}
      </div>
    </Snackbar>
  );
}
