import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** The only thing the sign-in, sign-out and callback routes show. */
export function FullPageLoader({ label }: { label: string }) {
  return (
    // The screen less the global navigator's bar above, when it has one (app/app-config.ts).
    <Box
      component="main"
      sx={{ display: 'grid', placeItems: 'center', minHeight: 'calc(100vh - var(--global-navigator-height, 0px))' }}
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
