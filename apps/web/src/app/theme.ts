import { createTheme, type ThemeOptions } from '@mui/material/styles';
import { LabelledTabScrollButton } from '../components/tabs/labelled-tab-scroll-button.tsx';
import { lineClamp, designTokens as tokens } from '../config/design-tokens.ts';
import { components } from '../locales/en/translation.json';
import { GLOBAL_NAVIGATOR_HEIGHT_VARIABLE } from './app-config.ts';
import { designSystemTexts } from './design-system-texts.ts';

const { breakpoints: bp, gridColumns, iconSize, modal, toast, tooltip, skeleton, sideSheet } = tokens;
const px = (value: number) => `${value / 16}rem`;
/** Below md: the mobile range (SPEC.md §9 sm, and MUI's xs under it). */
const MOBILE = `@media (max-width:${bp.md.min - 0.05}px)`;
const SM_UP = `@media (min-width:${bp.sm.min}px)`;

/**
 * Presentation tokens from SPEC.md §9 (config/design-tokens.ts) applied to MUI: breakpoints,
 * spacing, typography, and each component's defaults. MUI needs an `xs` breakpoint, so xs starts
 * at 0 and sm at 320. Colours are picked for WCAG AA contrast on white (primary 5.8:1, secondary
 * text 7:1).
 */
export const themeOptions: ThemeOptions = {
  breakpoints: { values: { xs: 0, sm: bp.sm.min, md: bp.md.min, lg: bp.lg.min, xl: bp.xl.min } },
  spacing: tokens.spacingUnit,
  tokens,
  // English; LocaleThemeProvider puts in the page's language, as it does MUI's own texts.
  texts: designSystemTexts({ components }),
  mixins: { toolbar: { minHeight: tokens.header.height } },
  palette: {
    primary: { main: '#1565c0', contrastText: '#ffffff' },
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.66)' },
    background: { default: '#f6f7f9', paper: '#ffffff' },
  },
  typography: {
    fontFamily: tokens.fontFamily,
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.3 },
    h2: { fontSize: '1.25rem', fontWeight: 600, lineHeight: 1.4 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiGrid: {
      defaultProps: {
        columns: { xs: gridColumns.mobile, md: gridColumns.tablet, lg: gridColumns.laptop, xl: gridColumns.desktop },
      },
    },
    MuiSvgIcon: {
      styleOverrides: {
        root: {
          variants: (['xsmall', 'small', 'medium', 'large', 'xlarge'] as const).map((size) => ({
            props: { fontSize: size },
            style: { fontSize: px(iconSize[size]) },
          })),
        },
      },
    },
    MuiTooltip: {
      defaultProps: {
        enterDelay: tooltip.enterDelay,
        enterTouchDelay: tooltip.enterTouchDelay,
        leaveTouchDelay: tooltip.leaveTouchDelay,
      },
      styleOverrides: {
        tooltip: { maxWidth: tooltip.maxWidth, fontSize: '0.8125rem', ...lineClamp(tooltip.maxLines) },
      },
    },
    MuiSelect: {
      defaultProps: { MenuProps: { slotProps: { paper: { sx: { maxHeight: tokens.select.popoverMaxHeight } } } } },
    },
    MuiAutocomplete: {
      styleOverrides: { listbox: { maxHeight: tokens.select.popoverMaxHeight } },
    },
    MuiSnackbar: {
      defaultProps: { anchorOrigin: toast.anchorOrigin },
      styleOverrides: {
        // Below the platform's global navigator (its height is set when it is there, app-config.ts),
        // so a toast never covers its Sign out; MUI's own 8 px, 24 px from sm up, under it.
        anchorOriginTopRight: {
          top: `calc(var(${GLOBAL_NAVIGATOR_HEIGHT_VARIABLE}, 0px) + 8px)`,
          [SM_UP]: { top: `calc(var(${GLOBAL_NAVIGATOR_HEIGHT_VARIABLE}, 0px) + 24px)` },
        },
        // A toast is a Snackbar holding SnackbarContent or an Alert.
        root: {
          '& .MuiAlert-root': { minWidth: toast.minWidth, maxWidth: toast.maxWidth },
          '& .MuiAlert-message': lineClamp(toast.maxLines),
          '& .MuiAlert-message:has(.MuiAlertTitle-root)': { WebkitLineClamp: toast.maxLinesWithTitle },
        },
      },
    },
    MuiSnackbarContent: {
      styleOverrides: {
        // MUI raises the minimum to 288 px from sm up: the same media query, later, wins.
        root: { minWidth: toast.minWidth, maxWidth: toast.maxWidth, [SM_UP]: { minWidth: toast.minWidth } },
        message: lineClamp(toast.maxLines),
      },
    },
    MuiAlert: {
      styleOverrides: { message: lineClamp(tokens.alert.maxLines) },
    },
    MuiDialog: {
      styleOverrides: {
        paper: {
          maxWidth: `min(${modal.maxWidth}px, calc(100% - 64px))`,
          [MOBILE]: { maxWidth: `min(${modal.maxWidthMobile}px, calc(100% - 32px))`, margin: 16 },
        },
      },
    },
    MuiDrawer: {
      // Side sheets open on the right at the medium width; side navigation sets its own anchor and width.
      defaultProps: { anchor: sideSheet.anchor },
      styleOverrides: {
        paper: {
          variants: [{ props: { anchor: 'right' }, style: { width: sideSheet.widths.medium, maxWidth: '100%' } }],
        },
      },
    },
    MuiSkeleton: {
      defaultProps: { animation: skeleton.animation },
      styleOverrides: {
        wave: {
          '&::after': { animationDuration: `${skeleton.durationMs}ms`, animationDelay: `${skeleton.delayMs}ms` },
        },
      },
    },
    MuiBreadcrumbs: {
      defaultProps: {
        maxItems: tokens.breadcrumbs.maxItemsDesktop,
        itemsBeforeCollapse: 1,
        itemsAfterCollapse: tokens.breadcrumbs.maxItemsDesktop - 1,
      },
    },
    MuiTabs: {
      defaultProps: { slots: { scrollButtons: LabelledTabScrollButton } },
    },
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': { outline: '2px solid #1565c0', outlineOffset: 2 },
        },
      },
    },
  },
};

export const theme = createTheme(themeOptions);
