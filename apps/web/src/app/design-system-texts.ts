import type { ThemeOptions } from '@mui/material/styles';
import type { TFunction } from 'i18next';
import type { LocaleTranslation } from '../locales/translation-types.ts';

/**
 * The design system's default texts that MUI's locales do not have (SPEC.md §5 and §8): the form
 * field indicators and the tabs' scroll buttons. They live in the theme, beside MUI's own
 * localization, so a component reads them from the theme of the page's language.
 */
export interface DesignSystemTexts {
  required: string;
  optional: string;
  scrollTabsLeft: string;
  scrollTabsRight: string;
}

/** The texts of one language, from its translation file. */
export function designSystemTexts(translation: Pick<LocaleTranslation, 'components'>): DesignSystemTexts {
  const { formField, tabs } = translation.components;
  return {
    required: formField.required,
    optional: formField.optional,
    scrollTabsLeft: tabs.scrollLeft,
    scrollTabsRight: tabs.scrollRight,
  };
}

/**
 * The theme's locale of one language beyond MUI's: the texts above, and the generic pagination's
 * defaults (SPEC.md §9: "Rows per page:" and "more than N") in the page's own words, so that a
 * pagination without labels reads as the Users page's does (MUI's locales word some differently).
 * An unknown total (-1) is "more than" the last row shown, as MUI says it.
 */
export function designSystemLocalization(translation: LocaleTranslation, t: TFunction): ThemeOptions {
  return {
    texts: designSystemTexts(translation),
    components: {
      MuiTablePagination: {
        defaultProps: {
          labelRowsPerPage: t('users.pagination.rowsPerPage'),
          labelDisplayedRows: ({ from, to, count }) =>
            count === -1
              ? t('users.pagination.moreThan', { from, to, count: to })
              : t('users.pagination.displayedRows', { from, to, count }),
        },
      },
    },
  };
}
