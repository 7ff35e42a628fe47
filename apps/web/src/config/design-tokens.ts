/**
 * The design system's presentation tokens (SPEC.md §9), in pixels and milliseconds. The theme
 * (app/theme.ts) applies them to MUI's components and carries them whole as `theme.tokens`, for
 * what MUI has no component for (side sheets, side navigation, header, footer).
 */
export const designTokens = {
  /** Inclusive ranges; MUI also needs `xs` from 0, which the theme adds. */
  breakpoints: {
    sm: { min: 320, max: 480 },
    md: { min: 481, max: 768 },
    lg: { min: 769, max: 1279 },
    xl: { min: 1280, max: 2560 },
  },
  /** Mobile is sm (and below), tablet md, laptop lg, desktop xl. */
  gridColumns: { mobile: 4, tablet: 8, laptop: 8, desktop: 12 },
  spacingUnit: 8,
  iconSize: { xsmall: 16, small: 20, medium: 24, large: 40, xlarge: 48 },
  /** Shipped with the app (@fontsource-variable/inter): no font request leaves the origin. */
  fontFamily:
    '"Inter Variable", Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  modal: { maxWidth: 440, maxWidthMobile: 320 },
  toast: {
    minWidth: 272,
    maxWidth: 480,
    anchorOrigin: { vertical: 'top', horizontal: 'right' },
    maxLines: 6,
    maxLinesWithTitle: 7,
  },
  alert: { maxLines: 5 },
  sideSheet: { anchor: 'right', widths: { small: 350, medium: 460, large: 675 } },
  footer: { maxWidth: 1760 },
  sideNavigation: { expandedWidth: 300, collapsedWidth: 64 },
  header: { height: 64 },
  tooltip: { enterDelay: 100, enterTouchDelay: 700, leaveTouchDelay: 1500, maxWidth: 300, maxLines: 6 },
  select: { popoverMaxHeight: 275 },
  skeleton: { animation: 'wave', durationMs: 2000, delayMs: 1000 },
  breadcrumbs: { maxItemsDesktop: 3, maxItemsMobile: 0, showLast: false, maxLabelLength: 40 },
} as const;

export type DesignTokens = typeof designTokens;

/** Cuts text after `lines` lines with an ellipsis (alerts, toasts, tooltips). */
export function lineClamp(lines: number) {
  return {
    display: '-webkit-box',
    WebkitLineClamp: lines,
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  } as const;
}
