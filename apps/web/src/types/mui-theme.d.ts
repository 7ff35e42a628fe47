import '@mui/material/styles';
import '@mui/material/SvgIcon';
import type { DesignSystemTexts } from '../app/design-system-texts.ts';
import type { DesignTokens } from '../config/design-tokens.ts';

declare module '@mui/material/styles' {
  interface Theme {
    /** SPEC.md §9's tokens, including those MUI has no component for (`theme.tokens.sideSheet.widths`). */
    tokens: DesignTokens;
    /** The design system's default texts in the page's language (Required, Optional, Scroll tabs…). */
    texts: DesignSystemTexts;
  }
  interface ThemeOptions {
    tokens?: DesignTokens;
    texts?: DesignSystemTexts;
  }
}

/** The design system's five icon sizes: 16, 20, 24, 40 and 48 px. */
declare module '@mui/material/SvgIcon' {
  interface SvgIconPropsSizeOverrides {
    xsmall: true;
    xlarge: true;
  }
}
