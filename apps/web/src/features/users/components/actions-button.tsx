import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import type { BulkContext } from '../actions/bulk-plan.ts';
import { useMenuButton } from '../hooks/use-menu-button.ts';
import type { BulkAction } from './actions-menu.tsx';

const loadActionsMenu = retryingImport(() => import('./actions-menu.tsx'));
const ActionsMenu = lazyPart(() => loadActionsMenu().then((module) => module.ActionsMenu));
const loadFlow = retryingImport(() => import('../actions/bulk-action-flow.tsx'));
const BulkActionFlow = lazyPart(() => loadFlow().then((module) => module.BulkActionFlow));
// Pointing at the button loads the menu, and the dialogs its actions open.
const loadActions = () => Promise.all([loadActionsMenu(), loadFlow()]);

interface ActionsButtonProps {
  orgId: string | undefined;
  /** Some user is selected (how many may not be counted yet). */
  hasSelection: boolean;
  canInvitePending: boolean;
  /** The selection and the list an action applies to. */
  context: BulkContext;
  /** An action changed users: the selection has served. */
  onDone: () => void;
}

/** The bulk Actions menu button; the menu's code, and its dialogs', load on first use. */
export function ActionsButton({ orgId, hasSelection, canInvitePending, context, onDone }: ActionsButtonProps) {
  const { t } = useTranslation();
  const { loaded, buttonProps, menu } = useMenuButton(loadActions);
  const button = useRef<HTMLButtonElement>(null);
  // The context is kept as it was when the action was chosen: the dialog's question stays true.
  const [chosen, setChosen] = useState<{ action: BulkAction; context: BulkContext }>();
  // Once the dialog is gone (its focus trap with it), focus comes back here: the menu item is gone too.
  const hadDialog = useRef(false);
  useEffect(() => {
    if (chosen) hadDialog.current = true;
    else if (hadDialog.current) {
      hadDialog.current = false;
      button.current?.focus();
    }
  }, [chosen]);

  return (
    <>
      <Button ref={button} {...buttonProps} variant="outlined" endIcon={<ArrowDropDownIcon />}>
        {t('users.actions.button')}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ActionsMenu
            {...menu}
            hasSelection={hasSelection}
            canInvitePending={canInvitePending}
            onAction={(action) => setChosen({ action, context })}
          />
        </Suspense>
      )}
      {chosen && orgId && (
        <Suspense fallback={null}>
          <BulkActionFlow
            orgId={orgId}
            menuAction={chosen.action}
            context={chosen.context}
            onDone={onDone}
            onClose={() => setChosen(undefined)}
          />
        </Suspense>
      )}
    </>
  );
}
