import ViewColumnOutlinedIcon from '@mui/icons-material/ViewColumnOutlined';
import Button from '@mui/material/Button';
import type { UserColumn } from '@users-admin/contract';
import { memo, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import { useMenuButton } from '../hooks/use-menu-button.ts';

const loadColumnsMenu = retryingImport(() => import('./columns-menu.tsx'));
const ColumnsMenu = lazyPart(() => loadColumnsMenu().then((module) => module.ColumnsMenu));

interface ColumnsButtonProps {
  orgId: string;
  /** The optional columns shown; undefined while they load. */
  columns: readonly UserColumn[] | undefined;
}

/** The Columns button; the menu's code loads on first use. */
export const ColumnsButton = memo(function ColumnsButton({ orgId, columns }: ColumnsButtonProps) {
  const { t } = useTranslation();
  const { loaded, buttonProps, menu } = useMenuButton(loadColumnsMenu);

  return (
    <>
      <Button
        {...buttonProps}
        variant="outlined"
        startIcon={<ViewColumnOutlinedIcon />}
        disabled={columns === undefined}
      >
        {t('users.columnChoice.button')}
      </Button>
      {loaded && columns && (
        <Suspense fallback={null}>
          <ColumnsMenu {...menu} orgId={orgId} columns={columns} />
        </Suspense>
      )}
    </>
  );
});
