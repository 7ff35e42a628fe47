import Alert from '@mui/material/Alert';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import { inMainLandmark } from '../../../utils/main-landmark.ts';
import type { BulkContext } from '../actions/bulk-plan.ts';

// Imported from here, not from the Actions button: the first render then lists none of its chunks.
const BulkActionFlow = lazyPart(() =>
  retryingImport(() => import('../actions/bulk-action-flow.tsx'))().then((module) => module.BulkActionFlow),
);

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
  orgId: string | undefined;
  /** The selection and the list an action applies to. */
  context: BulkContext;
  /** An action changed users: the selection has served. */
  onDone: () => void;
  /** Puts focus back on the Actions button once an action's dialog is gone. */
  returnFocus: () => void;
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
  onClose,
  ...flow
}: ActionsMenuProps) {
  const { t } = useTranslation();
  const [noSelectionAlert, setNoSelectionAlert] = useState(false);
  // Kept as it was when the action was chosen: the dialog's question stays true.
  const [chosen, setChosen] = useState<{ action: BulkAction; context: BulkContext }>();
  // The dialogs' code loads while the menu is open.
  useEffect(() => void BulkActionFlow.preload(), []);
  useFocusReturn(chosen !== undefined, flow.returnFocus);
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
    else setChosen({ action, context: flow.context });
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
      {chosen && flow.orgId && (
        <Suspense fallback={null}>
          <BulkActionFlow
            orgId={flow.orgId}
            menuAction={chosen.action}
            context={chosen.context}
            onDone={flow.onDone}
            onClose={() => setChosen(undefined)}
          />
        </Suspense>
      )}
    </>
  );
}

/** Once a dialog is gone (its focus trap with it), focus goes back to the button: the menu item is gone too. */
function useFocusReturn(open: boolean, returnFocus: () => void) {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current) {
      wasOpen.current = false;
      returnFocus();
    }
  }, [open, returnFocus]);
}
