import type { Localization } from '@mui/material/locale';
import type en from './en/translation.json';

/** English is the source of the shape: i18next's key types come from it (see types/i18next.d.ts). */
export type Translation = typeof en;

/** i18next's plural suffixes, one per CLDR plural category (`Intl.PluralRules`). */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
type PluralCategory = (typeof PLURAL_CATEGORIES)[number];
type OptionalPluralCategory = Exclude<PluralCategory, 'other'>;

/**
 * What every other language must provide: each key of English, with a string where English has
 * one. A plural family is required through its `_other` form; the other forms a language needs
 * (none in ja and zh, `_one` in de, `_one` and `_many` in fr…) depend on the language's plural
 * rules, so locales.test.ts checks them against `Intl.PluralRules`, along with keys English lacks.
 */
export type LocaleTranslation<T = Translation> = {
  [K in keyof T as K extends `${string}_${OptionalPluralCategory}` ? never : K]: T[K] extends string
    ? string
    : LocaleTranslation<T[K]>;
} & {
  [K in keyof T as K extends `${infer Base}_other` ? `${Base}_${OptionalPluralCategory}` : never]?: string;
};

/** One language as it is loaded: the page's texts and MUI's own component texts. */
export interface LanguageResources {
  translation: LocaleTranslation;
  mui: Localization;
}
