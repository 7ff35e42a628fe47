import type { SupportedLocale } from '@users-admin/contract';
import type { InvitationProblem } from '../repositories/invitation-acceptance.ts';
import { fill, INVITATION_MESSAGES } from './invitation-messages.ts';
import { html, page } from './sign-in-page.ts';

export const PASSWORD_MIN_LENGTH = 8;

interface InvitationPage {
  language: SupportedLocale;
  orgName: string;
  email: string;
}

/** The embedded identity provider's page where an invitee chooses their password. */
export function renderChoosePasswordPage(
  options: InvitationPage & { action: string; error?: 'tooShort' | 'mismatch' },
) {
  const texts = INVITATION_MESSAGES[options.language];
  const values = { org: options.orgName, address: options.email, min: String(PASSWORD_MIN_LENGTH) };
  const field = (name: 'password' | 'confirm', autofocus: boolean) =>
    html`<label for="${name}">${texts[name]}</label>
<input id="${name}" name="${name}" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required${autofocus ? html` autofocus` : ''}>`;
  return page(
    options.language,
    texts.title,
    html`${options.error ? html`<p role="alert">${fill(texts[options.error], values)}</p>` : ''}
<p>${fill(texts.intro, values)}</p>
<form method="post" action="${options.action}">
<input type="hidden" name="username" autocomplete="username" value="${options.email}">
${field('password', true)}
${field('confirm', false)}
<button type="submit">${texts.submit}</button>
</form>`,
  );
}

/** With an external issuer: the invitee signs in there with the invited address. */
export function renderExternalInvitationPage(options: InvitationPage) {
  const texts = INVITATION_MESSAGES[options.language];
  const text = fill(texts.external, { org: options.orgName, address: options.email });
  const form = html`<form method="get" action="/auth/start"><button type="submit">${texts.signIn}</button></form>`;
  return page(options.language, texts.title, html`<p>${text}</p>${form}`);
}

/** A link that no longer works: why, and what to do. */
export function renderInvitationProblemPage(language: SupportedLocale, problem: InvitationProblem) {
  const texts = INVITATION_MESSAGES[language];
  const signIn = problem === 'used' ? html`<p><a href="/">${texts.signIn}</a></p>` : '';
  return page(language, texts[`${problem}Title`], html`<p role="alert">${texts[problem]}</p>${signIn}`);
}
