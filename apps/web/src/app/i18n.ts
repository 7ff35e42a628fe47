import type { EmotionCache } from '@emotion/cache';
import { enUS, type Localization } from '@mui/material/locale';
import { DEFAULT_LOCALE, SUPPORTED_LOCALES, type SupportedLocale } from '@users-admin/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { rememberedLanguage, rememberLanguage } from '../lib/i18n/remembered-language.ts';
import { retry } from '../lib/retry/retry.ts';
// English's texts but the actions' (`userActions`), which load with the actions (features/users/actions).
import { auth, common, components, users } from '../locales/en/translation.json';
import type { LanguageResources } from '../locales/translation-types.ts';

export type { Translation } from '../locales/translation-types.ts';

type LazyLanguage = Exclude<SupportedLocale, 'en'>;

const en = { common, components, users, auth };

/**
 * Translations are bundled (no translation request, SPEC.md §7), each language in its own chunk:
 * only the session's language is downloaded. English stays in the main chunk as the fallback.
 * The type makes every language's module satisfy English's shape (see translation-types.ts).
 */
const LOADERS: Record<LazyLanguage, () => Promise<{ resources: LanguageResources }>> = {
  de: () => import('../locales/de/resources.ts'),
  es: () => import('../locales/es/resources.ts'),
  fr: () => import('../locales/fr/resources.ts'),
  it: () => import('../locales/it/resources.ts'),
  ja: () => import('../locales/ja/resources.ts'),
  nl: () => import('../locales/nl/resources.ts'),
  pt: () => import('../locales/pt/resources.ts'),
  zh: () => import('../locales/zh/resources.ts'),
};

/** MUI's own component texts (Alert's "Close", TablePagination's defaults…) of each loaded language. */
const muiLocalizations = new Map<string, Localization>([[DEFAULT_LOCALE, enUS]]);

let rtlCache: EmotionCache | undefined;

/**
 * `<html lang>` where the texts are of one variety: Brazilian Portuguese, and Simplified Chinese
 * (which also makes browsers pick Simplified glyphs).
 */
const DOCUMENT_LANG: Partial<Record<string, string>> = { pt: 'pt-BR', zh: 'zh-Hans' };

/** The `<html lang>` of a language. */
export function documentLanguage(language: string): string {
  return DOCUMENT_LANG[language] ?? language;
}

function isLazyLanguage(language: string): language is LazyLanguage {
  return Object.hasOwn(LOADERS, language);
}

/**
 * The supported language of a locale tag: 'pt-BR', 'zh_CN', 'de-AT' and 'EN-us' give pt, zh, de
 * and en; anything unsupported, or nothing, gives the default, en.
 */
export function resolveLanguage(locale: string | null | undefined): SupportedLocale {
  const primary = locale?.trim().split(/[-_]/)[0]?.toLowerCase();
  return SUPPORTED_LOCALES.find((language) => language === primary) ?? DEFAULT_LOCALE;
}

/** Whether the page shows the language of `locale` already. */
export function isShownLanguage(locale: string | null | undefined): boolean {
  return resolveLanguage(locale) === i18n.language;
}

export function initI18n() {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    resources: { [DEFAULT_LOCALE]: { translation: en } },
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
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
  document.documentElement.lang = DEFAULT_LOCALE;
  document.documentElement.dir = 'ltr';
  // The last session's language starts downloading now, alongside the session lookup, so that
  // it is usually there when the session names it. Not in the silent sign-in's hidden frame.
  const hint = rememberedLanguage();
  if (hint && isLazyLanguage(hint) && window.parent === window) void loadLanguage(hint).catch(() => undefined);
  return i18n;
}

/** Makes a language's texts available (a no-op for English and for languages already loaded). */
export async function loadLanguage(language: string): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation') || !isLazyLanguage(language)) return;
  // A chunk that did not arrive is fetched again, as any resource (SPEC.md §9: up to 5 retries).
  const { resources } = await retry(LOADERS[language]);
  registerLanguage(language, resources);
}

/** Adds a language's texts; the bundled ones come through `loadLanguage`, tests may add others. */
export function registerLanguage(language: string, resources: LanguageResources) {
  i18n.addResourceBundle(language, 'translation', resources.translation, true, true);
  muiLocalizations.set(language, resources.mui);
}

export function muiLocalization(language: string): Localization | undefined {
  return muiLocalizations.get(language);
}

/** The emotion cache that mirrors styles, once a right-to-left language has loaded it. */
export function rightToLeftCache(): EmotionCache | undefined {
  return rtlCache;
}

let latestSwitch = 0;

/**
 * Shows the page in `language`: loads its texts and, for a right-to-left script, the style
 * mirroring (neither weighs on the first render), then switches and keeps `<html lang dir>`
 * truthful. When switches overlap, the last one asked for wins.
 */
export async function switchLanguage(language: string): Promise<void> {
  const request = ++latestSwitch;
  await loadLanguage(language);
  const direction = i18n.dir(language);
  if (direction === 'rtl' && !rtlCache) rtlCache = (await import('./rtl-cache.ts')).createRtlCache();
  if (request !== latestSwitch) return;
  if (i18n.language !== language) await i18n.changeLanguage(language);
  document.documentElement.lang = documentLanguage(language);
  document.documentElement.dir = direction;
}

/**
 * Follows the session's locale (SPEC.md §7): its supported language, else English. If that
 * language's chunk cannot be downloaded, the page stays in the language it has.
 */
export async function applyLocale(locale: string | null | undefined): Promise<void> {
  const language = resolveLanguage(locale);
  try {
    await switchLanguage(language);
    rememberLanguage(language);
  } catch (error) {
    console.warn(`The ${language} texts could not be loaded; the page stays in ${i18n.language}`, error);
  }
}
