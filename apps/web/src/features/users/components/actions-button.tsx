import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import { Suspense, useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import type { BulkContext } from '../actions/bulk-plan.ts';
import { useMenuButton } from '../hooks/use-menu-button.ts';

const loadActionsMenu = retryingImport(() => import('./actions-menu.tsx'));
const ActionsMenu = lazyPart(() => loadActionsMenu().then((module) => module.ActionsMenu));

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

/** The bulk Actions menu button; the menu's code, then its dialogs', load on first use. */
export function ActionsButton({ hasSelection, canInvitePending, ...flow }: ActionsButtonProps) {
  const { t } = useTranslation();
  const { loaded, buttonProps, menu } = useMenuButton(loadActionsMenu);
  const button = useRef<HTMLButtonElement>(null);
  const returnFocus = useCallback(() => button.current?.focus(), []);

  return (
    <>
      <Button ref={button} {...buttonProps} variant="outlined" endIcon={<ArrowDropDownIcon />}>
        {t('users.actions.button')}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ActionsMenu
            {...menu}
            {...flow}
            hasSelection={hasSelection}
            canInvitePending={canInvitePending}
            returnFocus={returnFocus}
          />
        </Suspense>
      )}
    </>
  );
}
