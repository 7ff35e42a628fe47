import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import { useMenuButton } from '../hooks/use-menu-button.ts';
import type { BulkAction } from './actions-menu.tsx';

const loadActionsMenu = retryingImport(() => import('./actions-menu.tsx'));
const ActionsMenu = lazyPart(() => loadActionsMenu().then((module) => module.ActionsMenu));

interface ActionsButtonProps {
  /** Some user is selected (how many may not be counted yet). */
  hasSelection: boolean;
  canInvitePending: boolean;
  onAction: (action: BulkAction) => void;
}

/** The bulk Actions menu button; the menu's code loads on first use. */
export function ActionsButton({ hasSelection, canInvitePending, onAction }: ActionsButtonProps) {
  const { t } = useTranslation();
  const { loaded, buttonProps, menu } = useMenuButton(loadActionsMenu);

  return (
    <>
      <Button {...buttonProps} variant="outlined" endIcon={<ArrowDropDownIcon />}>
        {t('users.actions.button')}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ActionsMenu {...menu} hasSelection={hasSelection} canInvitePending={canInvitePending} onAction={onAction} />
        </Suspense>
      )}
    </>
  );
}
