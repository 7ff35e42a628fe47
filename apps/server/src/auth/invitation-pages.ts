import type { SupportedLocale } from '@users-admin/contract';
import type { InvitationProblem } from '../repositories/invitation-acceptance.ts';
import { fill, INVITATION_MESSAGES } from './invitation-messages.ts';
import { html, page } from './sign-in-page.ts';

/** The shortest password an invitee may choose. */
export const PASSWORD_MIN_LENGTH = 8;

/** The embedded identity provider's page where an invitee chooses their password. */
export function renderChoosePasswordPage(options: {
  language: SupportedLocale;
  action: string;
  orgName: string;
  email: string;
  error?: 'tooShort' | 'mismatch' | undefined;
}): string {
  const texts = INVITATION_MESSAGES[options.language].choosePassword;
  const values = { org: options.orgName, address: options.email, min: String(PASSWORD_MIN_LENGTH) };
  return page(
    options.language,
    texts.title,
    html`${options.error ? html`<p role="alert">${fill(texts[options.error], values)}</p>` : ''}
<p>${fill(texts.intro, values)}</p>
<form method="post" action="${options.action}">
<input type="hidden" name="username" autocomplete="username" value="${options.email}">
<label for="password">${texts.password}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required autofocus>
<label for="confirm">${texts.confirm}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>
<button type="submit">${texts.submit}</button>
</form>`,
  );
}

/** With an external issuer: where the invitee goes to sign in with the invited address. */
export function renderExternalInvitationPage(options: {
  language: SupportedLocale;
  orgName: string;
  email: string;
}): string {
  const messages = INVITATION_MESSAGES[options.language];
  const text = fill(messages.external.text, { org: options.orgName, address: options.email });
  return page(
    options.language,
    messages.choosePassword.title,
    html`<p>${text}</p>
<form method="get" action="/auth/start"><button type="submit">${messages.external.submit}</button></form>`,
  );
}

/** A link that no longer works: why, and what to do. */
export function renderInvitationProblemPage(language: SupportedLocale, problem: InvitationProblem): string {
  const messages = INVITATION_MESSAGES[language];
  const texts = messages[problem];
  const signIn = problem === 'used' ? html`<p><a href="/">${messages.used.signIn}</a></p>` : '';
  return page(language, texts.title, html`<p role="alert">${texts.text}</p>${signIn}`);
}
