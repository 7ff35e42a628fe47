import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import type { ExportState } from './export-state.ts';

/** A finished or cancelled export's message stays this long; a failure stays until it is closed. */
const SETTLED_MESSAGE_MS = 8000;

interface ExportStatusProps {
  state: ExportState;
  onCancel: () => void;
  onClose: () => void;
}

const toastSx = { minWidth: 272, maxWidth: 480, boxShadow: 3 } as const;

/** The running export's progress with its Cancel, then how it ended: a toast at the top right. */
export function ExportStatus({ state, onCancel, onClose }: ExportStatusProps) {
  const { t } = useTranslation();
  let toast = null;
  if (state.phase === 'running') {
    const counted = state.total !== undefined;
    const text = counted
      ? t('users.export.progress', { done: state.done, count: state.total })
      : t('users.export.preparing');
    const percent = counted && state.total ? Math.min(100, (state.done / state.total) * 100) : 0;
    toast = (
      <Alert
        severity="info"
        role="group"
        aria-label={t('users.export.progressLabel')}
        action={
          <Button color="inherit" size="small" onClick={onCancel}>
            {t('users.export.cancel')}
          </Button>
        }
        sx={{ ...toastSx, '& .MuiAlert-message': { flex: 1 } }}
      >
        {text}
        <LinearProgress
          variant={counted ? 'determinate' : 'indeterminate'}
          value={percent}
          aria-label={t('users.export.progressLabel')}
          sx={{ mt: 1 }}
        />
        {/* Said once as it starts: the count that changes many times a second is for the eyes. */}
        <Box role="status" sx={visuallyHidden}>
          {t('users.export.preparing')}
        </Box>
      </Alert>
    );
  } else if (state.phase === 'failed') {
    toast = (
      <Alert severity="error" onClose={onClose} sx={toastSx}>
        {t('users.export.failed')}
      </Alert>
    );
  } else if (state.phase !== 'idle') {
    const done = state.phase === 'done';
    toast = (
      <Alert severity={done ? 'success' : 'info'} role="status" onClose={onClose} sx={toastSx}>
        {done ? t('users.export.done', { count: state.rows, file: state.name }) : t('users.export.cancelled')}
      </Alert>
    );
  }
  return (
    <Snackbar
      open={toast !== null}
      autoHideDuration={state.phase === 'done' || state.phase === 'cancelled' ? SETTLED_MESSAGE_MS : null}
      onClose={(_event, reason) => {
        if (reason === 'timeout') onClose();
      }}
    >
      {/* Snackbar needs one element that holds a ref, even while it closes. */}
      <div>{toast}</div>
    </Snackbar>
  );
}
