import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import { memo, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import type { ExportView } from '../export/export-runner.tsx';

const loadExport = retryingImport(() => import('../export/export-runner.tsx'));
const ExportRunner = lazyPart(() => loadExport().then((module) => module.ExportRunner));

/**
 * Exports the view, or the selection, as CSV. Only the button is in the first render: the export,
 * its progress and its state load on first use.
 */
export const ExportButton = memo(function ExportButton(view: ExportView & { hasSelection: boolean }) {
  const { t } = useTranslation();
  // Each press asks for a run; the runner starts one unless one is under way.
  const [requests, setRequests] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        variant="outlined"
        startIcon={<FileDownloadOutlinedIcon />}
        onPointerEnter={() => void loadExport()}
        onFocus={() => void loadExport()}
        onClick={() => setRequests((count) => count + 1)}
      >
        {t(view.hasSelection ? 'users.export.buttonSelected' : 'users.export.button')}
      </Button>
      {requests > 0 && (
        <Suspense fallback={null}>
          <ExportRunner {...view} requests={requests} button={button} />
        </Suspense>
      )}
    </>
  );
});
