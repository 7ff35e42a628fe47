import { DEFAULT_LOCALE, SUPPORTED_LOCALES } from '@users-admin/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en/translation.json';

/** English is the source: every later language must have exactly this shape (see types/i18next.d.ts). */
export type Translation = typeof en;

/** Bundled translations, so no translation request is made (SPEC.md §7). */
const resources = { en: { translation: en } } satisfies Record<string, { translation: Translation }>;

/** Right-to-left scripts (SPEC.md §9); none is bundled yet, but the layout follows the language. */
const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur']);

export function initI18n() {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    resources,
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    load: 'languageOnly',
    defaultNS: 'translation',
    ns: ['translation'],
    keySeparator: '.',
    nsSeparator: ':',
    pluralSeparator: '_',
    interpolation: { escapeValue: false, prefix: '{{', suffix: '}}' },
    returnNull: false,
    initAsync: false,
  });
  return i18n;
}

/** Switches to the session's locale when it is supported, and keeps `<html lang dir>` truthful. */
export async function applyLocale(locale: string) {
  const language = locale.split(/[-_]/)[0]?.toLowerCase() ?? DEFAULT_LOCALE;
  if ((SUPPORTED_LOCALES as readonly string[]).includes(language) && language !== i18n.language) {
    await i18n.changeLanguage(language);
  }
  const shown = i18n.resolvedLanguage ?? DEFAULT_LOCALE;
  document.documentElement.lang = shown;
  document.documentElement.dir = RTL_LANGUAGES.has(shown) ? 'rtl' : 'ltr';
}
