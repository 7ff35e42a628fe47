import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { DEFAULT_LOCALE } from '@users-admin/contract';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocaleTranslation } from '../locales/translation-types.ts';
import { designSystemLocalization } from './design-system-texts.ts';
import { muiLocalization, rightToLeftCache } from './i18n.ts';
import { theme } from './theme.ts';

/** Emotion's usual cache, held here so that switching to the mirroring cache keeps the tree mounted. */
const leftToRightCache = createCache({ key: 'css' });

/**
 * The theme in the page's language: MUI's own component texts of that language merged in
 * (MUI's documented `createTheme(theme, locale)`) and the design system's own (design-system-texts.ts),
 * and for a right-to-left language the theme's
 * direction and the emotion cache that mirrors styles. English left to right is the theme as is.
 */
export function LocaleThemeProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const direction = i18n.dir(language);
  const localization = muiLocalization(language);
  const mirrored = direction === 'rtl' ? rightToLeftCache() : undefined;

  const localized = useMemo(() => {
    // The design system's own default texts (Required, Optional, Scroll tabs, the pagination's) of the
    // same language; English ones are the theme's own. A language switch comes after its texts are loaded.
    const translation =
      language === DEFAULT_LOCALE
        ? undefined
        : (i18n.getResourceBundle(language, 'translation') as LocaleTranslation | undefined);
    if (direction === 'ltr' && (localization === undefined || Object.keys(localization).length === 0) && !translation) {
      return theme;
    }
    return createTheme(
      theme,
      { direction },
      localization ?? {},
      translation ? designSystemLocalization(translation, i18n.getFixedT(language)) : {},
    );
  }, [i18n, language, direction, localization]);

  return (
    <CacheProvider value={mirrored ?? leftToRightCache}>
      <ThemeProvider theme={localized}>{children}</ThemeProvider>
    </CacheProvider>
  );
}
