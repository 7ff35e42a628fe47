import { createHint } from '../storage/hint.ts';

/**
 * The language of this browser's last session. Two uses: the start-up loads that language's texts
 * while the session is still being looked up, and a sign-in started from the page asks the identity
 * provider for it (`ui_locales`). A hint only: the session's locale always decides.
 */
const language = createHint('users-admin.language');

export function rememberedLanguage(): string | undefined {
  return language.read();
}

export function rememberLanguage(value: string): void {
  language.write(value);
}
