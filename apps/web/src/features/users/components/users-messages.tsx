import SearchOffIcon from '@mui/icons-material/SearchOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

// What the page shows instead of rows, loaded apart from the first render (users-page.tsx): MUI's
// Alert and the icons are not needed to draw the rows, which most pages show.

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

/** No users at all, with no search or filter. */
export function NoResults() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, py: 8, px: 2, textAlign: 'center' }}>
      <SearchOffIcon sx={{ fontSize: 48, color: 'text.secondary' }} />
      <Typography variant="h2">{t('users.states.noResults')}</Typography>
    </Box>
  );
}

/** The page cannot be shown to this user (SPEC.md §8, unauthorized). */
export function Unauthorized({ homeUrl }: { homeUrl: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', justifyItems: 'center', gap: 2, py: 8, px: 2, textAlign: 'center' }}>
      <Typography variant="h2">{t('users.unauthorized.title')}</Typography>
      <Typography sx={{ maxWidth: 480, color: 'text.secondary' }}>{t('users.unauthorized.text')}</Typography>
      <Button variant="contained" href={homeUrl}>
        {t('users.unauthorized.home')}
      </Button>
    </Box>
  );
}
