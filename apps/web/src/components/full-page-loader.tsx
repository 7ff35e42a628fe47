import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** The only thing the sign-in, sign-out and callback routes show. */
export function FullPageLoader({ label }: { label: string }) {
  return (
    <Box component="main" sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
