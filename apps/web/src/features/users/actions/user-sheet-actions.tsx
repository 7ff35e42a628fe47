import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserDetails } from '../api/get-user.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { ConfirmContent, UserTypeChoice } from './bulk-confirm.tsx';
import { type SheetAction, useSheetActions } from './use-sheet-actions.ts';

export interface UserSheetActionsProps {
  orgId: string;
  user: UserDetails;
  /** Counts the presses of the sheet's invitation link: each new one sends. */
  invitations: number;
  /** The user was removed: the sheet has nothing more to show. */
  onRemoved: () => void;
}

/**
 * The buttons, each in its place: Disable becomes Enable in the same button, which keeps the focus a
 * dialog gives back. Third-party users are managed by their identity provider: only their type changes.
 */
function offered(user: UserDetails): [string, SheetAction][] {
  const type: [string, SheetAction] = ['type', 'setUserType'];
  if (user.isExternal) return [type];
  return [type, ['status', user.status === 'disabled' ? 'enable' : 'disable'], ['remove', 'remove']];
}

/** A user's actions in their sheet, each asked in a dialog; focus comes back to its button. */
export function UserSheetActions({ orgId, user, invitations, onRemoved }: UserSheetActionsProps) {
  const { t } = useTranslation();
  const actions = useSheetActions(orgId, user, invitations, onRemoved);
  const { asking, message } = actions;
  const titleId = useId();
  const headingId = useId();
  const descriptionId = useId();
  const label = (action: SheetAction) =>
    action === 'setUserType' ? t('users.actions.changeUserType') : t(`userActions.sheet.${action}`);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {t('userActions.sheet.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {offered(user).map(([place, action]) => (
          <Button
            key={place}
            variant="outlined"
            size="small"
            color={action === 'remove' ? 'error' : 'primary'}
            onClick={() => actions.ask(action)}
          >
            {label(action)}
          </Button>
        ))}
      </Box>
      {message && (
        <Alert severity={message.done ? 'success' : 'error'} role={message.done ? 'status' : 'alert'} sx={{ mt: 2 }}>
          {message.text}
        </Alert>
      )}
      <Dialog
        open={asking !== undefined}
        onClose={actions.pending ? undefined : actions.cancel}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
      >
        {asking && (
          <ConfirmContent
            titleId={titleId}
            descriptionId={descriptionId}
            question={t(`userActions.sheet.question.${asking}`, { name: revealBidiControls(user.name) })}
            detail={t(`userActions.detail.${asking}`)}
            confirmLabel={label(asking)}
            destructive={asking === 'remove'}
            pending={actions.pending}
            onConfirm={() => actions.confirm(asking)}
            onCancel={actions.cancel}
          >
            {asking === 'setUserType' && (
              <UserTypeChoice value={actions.isSystemAdmin} onChange={actions.setIsSystemAdmin} />
            )}
          </ConfirmContent>
        )}
      </Dialog>
    </Box>
  );
}
