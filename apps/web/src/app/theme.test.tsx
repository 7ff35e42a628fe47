import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Snackbar from '@mui/material/Snackbar';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { theme } from './theme.ts';

const components = theme.components ?? {};

describe('the theme (SPEC.md §9)', () => {
  it('has the breakpoints sm 320, md 481, lg 769, xl 1280, with xs at 0 for MUI', () => {
    expect(theme.breakpoints.values).toEqual({ xs: 0, sm: 320, md: 481, lg: 769, xl: 1280 });
    expect(theme.tokens.breakpoints).toEqual({
      sm: { min: 320, max: 480 },
      md: { min: 481, max: 768 },
      lg: { min: 769, max: 1279 },
      xl: { min: 1280, max: 2560 },
    });
    expect(theme.breakpoints.down('md')).toBe('@media (max-width:480.95px)');
  });

  it('has an 8 px spacing unit and grids of 4, 8, 8 and 12 columns', () => {
    expect(theme.spacing(1)).toBe('8px');
    expect(theme.spacing(3)).toBe('24px');
    expect(components.MuiGrid?.defaultProps?.columns).toEqual({ xs: 4, md: 8, lg: 8, xl: 12 });
  });

  it('applies the grid columns to Grid at each breakpoint', () => {
    const { container } = render(
      <ThemeProvider theme={theme}>
        <Grid container>
          <Grid size={1}>a</Grid>
        </Grid>
      </ThemeProvider>,
    );
    const grid = container.firstElementChild as Element;
    const css = [...document.styleSheets]
      .flatMap((sheet) => [...sheet.cssRules])
      .map((rule) => rule.cssText.replace(/\s+/g, ''))
      .join('\n');
    const className = [...grid.classList].find((name) => name.startsWith('css-'));
    // jsdom applies no media query: the mobile value is the one it computes.
    expect(getComputedStyle(grid).getPropertyValue('--Grid-columns')).toBe('4');
    for (const [width, columns] of [
      [481, 8],
      [769, 8],
      [1280, 12],
    ]) {
      expect(css).toContain(`@media(min-width:${width}px){.${className}{--Grid-columns:${columns};}`);
    }
  });

  it('has the icon sizes 16, 20, 24, 40 and 48 px', () => {
    expect(Object.values(theme.tokens.iconSize)).toEqual([16, 20, 24, 40, 48]);
    const root = components.MuiSvgIcon?.styleOverrides?.root as { variants: { props: unknown; style: unknown }[] };
    expect(root.variants).toEqual([
      { props: { fontSize: 'xsmall' }, style: { fontSize: '1rem' } },
      { props: { fontSize: 'small' }, style: { fontSize: '1.25rem' } },
      { props: { fontSize: 'medium' }, style: { fontSize: '1.5rem' } },
      { props: { fontSize: 'large' }, style: { fontSize: '2.5rem' } },
      { props: { fontSize: 'xlarge' }, style: { fontSize: '3rem' } },
    ]);
  });

  it('sets the tooltip delays, width and line clamp', () => {
    expect(components.MuiTooltip?.defaultProps).toEqual({
      enterDelay: 100,
      enterTouchDelay: 700,
      leaveTouchDelay: 1500,
    });
    expect(components.MuiTooltip?.styleOverrides?.tooltip).toMatchObject({ maxWidth: 300, WebkitLineClamp: 6 });
  });

  it('caps select and autocomplete popovers at 275 px', () => {
    expect(components.MuiSelect?.defaultProps?.MenuProps).toEqual({
      slotProps: { paper: { sx: { maxHeight: 275 } } },
    });
    expect(components.MuiAutocomplete?.styleOverrides?.listbox).toEqual({ maxHeight: 275 });
  });

  it('clamps alerts at 5 lines and toasts at 6, 7 with a title; toasts are 272–480 px at the top right', () => {
    expect(components.MuiAlert?.styleOverrides?.message).toMatchObject({ WebkitLineClamp: 5 });
    expect(components.MuiSnackbar?.defaultProps?.anchorOrigin).toEqual({ vertical: 'top', horizontal: 'right' });
    expect(components.MuiSnackbar?.styleOverrides?.root).toMatchObject({
      '& .MuiAlert-root': { minWidth: 272, maxWidth: 480 },
      '& .MuiAlert-message': { WebkitLineClamp: 6 },
      '& .MuiAlert-message:has(.MuiAlertTitle-root)': { WebkitLineClamp: 7 },
    });
    expect(components.MuiSnackbarContent?.styleOverrides?.root).toMatchObject({ minWidth: 272, maxWidth: 480 });
    // Under the global navigator's bar, not over its Sign out.
    expect(components.MuiSnackbar?.styleOverrides?.anchorOriginTopRight).toEqual({
      top: 'calc(var(--global-navigator-height, 0px) + 8px)',
      '@media (min-width:320px)': { top: 'calc(var(--global-navigator-height, 0px) + 24px)' },
    });
    expect(components.MuiSnackbarContent?.styleOverrides?.message).toMatchObject({ WebkitLineClamp: 6 });
  });

  it('renders a toast at the top right', () => {
    render(
      <ThemeProvider theme={theme}>
        <Snackbar open message="Saved" />
      </ThemeProvider>,
    );
    expect(document.querySelector('.MuiSnackbar-anchorOriginTopRight')).not.toBeNull();
  });

  it('limits modals to 440 px, 320 px on mobile', () => {
    expect(theme.tokens.modal).toEqual({ maxWidth: 440, maxWidthMobile: 320 });
    expect(components.MuiDialog?.styleOverrides?.paper).toEqual({
      maxWidth: 'min(440px, calc(100% - 64px))',
      '@media (max-width:480.95px)': { maxWidth: 'min(320px, calc(100% - 32px))', margin: 16 },
    });
  });

  it('opens side sheets on the right at 350, 460 or 675 px', () => {
    expect(theme.tokens.sideSheet.widths).toEqual({ small: 350, medium: 460, large: 675 });
    expect(components.MuiDrawer?.defaultProps?.anchor).toBe('right');
  });

  it('carries the layout sizes: footer 1760, side navigation 300/64, header 64', () => {
    expect(theme.tokens.footer.maxWidth).toBe(1760);
    expect(theme.tokens.sideNavigation).toEqual({ expandedWidth: 300, collapsedWidth: 64 });
    expect(theme.tokens.header.height).toBe(64);
    expect(theme.mixins.toolbar).toEqual({ minHeight: 64 });
  });

  it('animates skeletons with a wave of 2000 ms after 1000 ms', () => {
    expect(components.MuiSkeleton?.defaultProps?.animation).toBe('wave');
    expect(components.MuiSkeleton?.styleOverrides?.wave).toEqual({
      '&::after': { animationDuration: '2000ms', animationDelay: '1000ms' },
    });
    const { container } = render(
      <ThemeProvider theme={theme}>
        <Skeleton />
      </ThemeProvider>,
    );
    expect(container.firstElementChild).toHaveClass('MuiSkeleton-wave');
  });

  it('shows up to 3 breadcrumbs, hides them on mobile, and truncates labels over 40 characters', () => {
    expect(theme.tokens.breadcrumbs).toEqual({
      maxItemsDesktop: 3,
      maxItemsMobile: 0,
      showLast: false,
      maxLabelLength: 40,
    });
    expect(components.MuiBreadcrumbs?.defaultProps).toEqual({
      maxItems: 3,
      itemsBeforeCollapse: 1,
      itemsAfterCollapse: 2,
    });
  });

  it('uses no CSS theme variables, so the build may leave the code of MUI for them out', () => {
    // See apps/web/build/mui-without-css-variables.ts: these themes take MUI's no-variables path.
    expect('colorSchemes' in theme).toBe(false);
    expect('vars' in theme).toBe(false);
    const localized = createTheme(theme, { direction: 'rtl' });
    expect('colorSchemes' in localized).toBe(false);
    expect(localized.tokens.header.height).toBe(64);
    expect('colorSchemes' in createTheme()).toBe(false);
  });

  it('uses the bundled variable sans-serif font first', () => {
    expect(theme.typography.fontFamily).toMatch(/^"Inter Variable", .*sans-serif$/);
  });
});
