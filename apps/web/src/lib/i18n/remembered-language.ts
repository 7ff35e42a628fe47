/**
 * The language of this browser's last session. Two uses: the start-up loads that language's texts
 * while the session is still being looked up, and a sign-in started from the page asks the identity
 * provider for it (`ui_locales`). A hint only: the session's locale always decides.
 */
const STORAGE_KEY = 'users-admin.language';

export function rememberedLanguage(): string | undefined {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    // Storage can be switched off (privacy settings, sandboxed frames): then there is no hint.
    return undefined;
  }
}

export function rememberLanguage(language: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // As above: without storage the next start-up simply has no hint.
  }
}
