import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

// The list's two alerts, loaded apart from the first render (users-page.tsx): MUI's Alert and its
// icons are not needed to draw the rows, which most pages show.

/** A search or filter matched nothing (SPEC.md §8, not found). */
export function NotFound({ search }: { search: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 2 }}>
      <Alert severity="info">
        {search ? t('users.states.notFound', { search }) : t('users.states.notFoundFilters')}
      </Alert>
    </Box>
  );
}

export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          // One line even on a narrow screen: the message wraps instead ("Try / again" read badly).
          <Button color="inherit" size="small" onClick={onRetry} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            {t('users.states.retry')}
          </Button>
        }
      >
        {t('users.states.error')}
      </Alert>
    </Box>
  );
}
