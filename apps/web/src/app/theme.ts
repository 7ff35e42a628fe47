import { createTheme } from '@mui/material/styles';

/**
 * Presentation tokens from SPEC.md §9. MUI needs an `xs` breakpoint, so xs starts at 0 and sm at 320.
 * Colours are picked for WCAG AA contrast on white (primary 5.8:1, secondary text 7:1).
 */
export const theme = createTheme({
  breakpoints: { values: { xs: 0, sm: 320, md: 481, lg: 769, xl: 1280 } },
  spacing: 8,
  palette: {
    primary: { main: '#1565c0', contrastText: '#ffffff' },
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.66)' },
    background: { default: '#f6f7f9', paper: '#ffffff' },
  },
  typography: {
    fontFamily:
      '"Inter Variable", Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.3 },
    h2: { fontSize: '1.25rem', fontWeight: 600, lineHeight: 1.4 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiTooltip: {
      defaultProps: { enterDelay: 100, enterTouchDelay: 700, leaveTouchDelay: 1500 },
      styleOverrides: {
        tooltip: {
          maxWidth: 300,
          fontSize: '0.8125rem',
          display: '-webkit-box',
          WebkitLineClamp: 6,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
        },
      },
    },
    MuiSelect: {
      defaultProps: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 275 } } } } },
    },
    MuiSnackbar: {
      defaultProps: { anchorOrigin: { vertical: 'top', horizontal: 'right' } },
    },
    MuiAlert: {
      styleOverrides: {
        message: { display: '-webkit-box', WebkitLineClamp: 5, WebkitBoxOrient: 'vertical', overflow: 'hidden' },
      },
    },
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': { outline: '2px solid #1565c0', outlineOffset: 2 },
        },
      },
    },
  },
});
