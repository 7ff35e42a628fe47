import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
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
