import ViewColumnOutlinedIcon from '@mui/icons-material/ViewColumnOutlined';
import Button from '@mui/material/Button';
import type { UserColumn } from '@users-admin/contract';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';

const loadColumnsMenu = retryingImport(() => import('./columns-menu.tsx'));
const ColumnsMenu = lazyPart(() => loadColumnsMenu().then((module) => module.ColumnsMenu));

interface ColumnsButtonProps {
  orgId: string;
  /** The optional columns shown; undefined while they load. */
  columns: readonly UserColumn[] | undefined;
}

/** The Columns button; the menu's code loads on first use. */
export function ColumnsButton({ orgId, columns }: ColumnsButtonProps) {
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
        startIcon={<ViewColumnOutlinedIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
        disabled={columns === undefined}
        onPointerEnter={() => void loadColumnsMenu()}
        onFocus={() => void loadColumnsMenu()}
        onClick={(event) => {
          setLoaded(true);
          setAnchor(event.currentTarget);
        }}
      >
        {t('users.columnChoice.button')}
      </Button>
      {loaded && columns && (
        <Suspense fallback={null}>
          <ColumnsMenu
            id={menuId}
            labelledBy={buttonId}
            anchor={anchor}
            orgId={orgId}
            columns={columns}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
