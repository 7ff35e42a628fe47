import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyLocale, isShownLanguage, resolveLanguage } from './i18n.ts';

/**
 * Puts the page in the session's language. True once the page may be shown: the session is known
 * and its language applied (or the lookup failed, and the page says so in the language it has),
 * so that no text flashes in one language before another.
 */
export function useSessionLanguage(locale: string | undefined, sessionSettled: boolean): boolean {
  const { i18n } = useTranslation();
  const [appliedLocale, setAppliedLocale] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (locale === undefined) return;
    let current = true;
    // A language already shown (main.tsx applies the session's before the first render) needs no render more.
    const shown = isShownLanguage(locale);
    void applyLocale(locale).finally(() => {
      if (current && !shown) setAppliedLocale(locale);
    });
    return () => {
      current = false;
    };
  }, [locale]);

  if (!sessionSettled) return false;
  return locale === undefined || appliedLocale === locale || resolveLanguage(locale) === i18n.language;
}
