import SearchOffIcon from '@mui/icons-material/SearchOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** The full-area overlay while the list loads; the rows under it stay in place. */
export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <Box sx={{ position: 'absolute', inset: 0, zIndex: 2, bgcolor: 'rgba(255, 255, 255, 0.7)' }}>
      {/* Sticky and at most a window high, so the indicator is in the middle of a short area and
          stays in view over a table taller than the window. */}
      <Box sx={{ position: 'sticky', top: 0, height: 'min(100%, 100vh)', display: 'grid', placeItems: 'center' }}>
        <CircularProgress aria-label={t('users.states.loading')} />
      </Box>
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
