import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [loaded, setLoaded] = useState(false);
  const menuId = useId();
  const buttonId = useId();

  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        onPointerEnter={() => void loadActionsMenu()}
        onFocus={() => void loadActionsMenu()}
        onClick={(event) => {
          setLoaded(true);
          setAnchor(event.currentTarget);
        }}
      >
        {t('users.actions.button')}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ActionsMenu
            id={menuId}
            labelledBy={buttonId}
            anchor={anchor}
            hasSelection={hasSelection}
            canInvitePending={canInvitePending}
            onAction={onAction}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
