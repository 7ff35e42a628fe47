import Alert from '@mui/material/Alert';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inMainLandmark } from '../../../utils/main-landmark.ts';

export type BulkAction = 'invitePending' | 'changeUserType' | 'disable' | 'enable' | 'remove';

/** How long the no-selection alert stays (SPEC.md §9). */
export const NO_SELECTION_ALERT_MS = 5000;

interface ActionsMenuProps {
  id: string;
  /** The Actions button, which names the menu. */
  labelledBy: string;
  anchor: HTMLElement | null;
  hasSelection: boolean;
  canInvitePending: boolean;
  onAction: (action: BulkAction) => void;
  onClose: () => void;
}

/**
 * The bulk actions. Without a selection an action only explains that users must be selected first
 * (SPEC.md §5); 'Invite pending users' is offered only when a selected user on the page is pending.
 */
export function ActionsMenu({
  id,
  labelledBy,
  anchor,
  hasSelection,
  canInvitePending,
  onAction,
  onClose,
}: ActionsMenuProps) {
  const { t } = useTranslation();
  const [noSelectionAlert, setNoSelectionAlert] = useState(false);
  const actions: BulkAction[] = [
    ...(canInvitePending ? ['invitePending' as const] : []),
    'changeUserType',
    'disable',
    'enable',
    'remove',
  ];

  const choose = (action: BulkAction) => {
    onClose();
    if (!hasSelection) setNoSelectionAlert(true);
    else onAction(action);
  };

  return (
    <>
      <Menu
        id={id}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={onClose}
        container={inMainLandmark}
        slotProps={{ list: { 'aria-labelledby': labelledBy } }}
      >
        {actions.map((action) => (
          <MenuItem key={action} onClick={() => choose(action)}>
            {t(`users.actions.${action}`)}
          </MenuItem>
        ))}
      </Menu>
      <Snackbar
        open={noSelectionAlert}
        autoHideDuration={NO_SELECTION_ALERT_MS}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setNoSelectionAlert(false);
        }}
      >
        <Alert
          severity="info"
          onClose={() => setNoSelectionAlert(false)}
          sx={{ minWidth: 272, maxWidth: 480, boxShadow: 3 }}
        >
          {t('users.actions.noSelection')}
        </Alert>
      </Snackbar>
    </>
  );
}
