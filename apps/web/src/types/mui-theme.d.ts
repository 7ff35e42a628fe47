import '@mui/material/styles';
import '@mui/material/SvgIcon';
import type { DesignTokens } from '../config/design-tokens.ts';

declare module '@mui/material/styles' {
  interface Theme {
    /** SPEC.md §9's tokens, including those MUI has no component for (`theme.tokens.sideSheet.widths`). */
    tokens: DesignTokens;
  }
  interface ThemeOptions {
    tokens?: DesignTokens;
  }
}

/** The design system's five icon sizes: 16, 20, 24, 40 and 48 px. */
declare module '@mui/material/SvgIcon' {
  interface SvgIconPropsSizeOverrides {
    xsmall: true;
    xlarge: true;
  }
}
