import type { SupportedLocale } from '@users-admin/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseIdpLanguage, htmlLang, IDP_MESSAGES } from './idp-messages.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Marks a string as HTML already escaped or built from escaped parts. */
class Html {
  constructor(readonly value: string) {}
}

/** A tagged template that escapes every interpolated value unless it is `Html` already. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) out += part instanceof Html ? part.value : escapeHtml(String(part ?? ''));
    out += strings[index + 1] ?? '';
  });
  return new Html(out);
}

export const IDP_CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f6f8; color: #1a1a1a; }
main { width: min(400px, calc(100vw - 32px)); background: #fff; border-radius: 8px; padding: 32px;
  box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 1px 2px rgba(0,0,0,.24); box-sizing: border-box; }
h1 { font-size: 1.5rem; margin: 0 0 24px; }
label { display: block; font-weight: 600; margin: 16px 0 4px; }
input[type=email], input[type=password] { width: 100%; box-sizing: border-box; font: inherit; padding: 10px 12px;
  border: 1px solid #767676; border-radius: 4px; }
input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
button { margin-top: 24px; width: 100%; font: inherit; font-weight: 600; padding: 10px; border: 0; border-radius: 4px;
  background: #1565c0; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1565c0; border: 1px solid #1565c0; margin-top: 12px; }
fieldset { border: 0; padding: 0; margin: 0; }
legend { font-weight: 600; margin-bottom: 8px; }
.choice { display: flex; gap: 8px; align-items: center; padding: 8px 0; font-weight: 400; margin: 0; }
details { margin: 8px 0; color: #4a4a4a; }
[role=alert] { background: #fdecea; color: #8a1c1c; padding: 8px 12px; border-radius: 4px; margin-bottom: 8px; }
`;

export function page(language: SupportedLocale, title: string, body: Html): string {
  return html`<!doctype html>
<html lang="${htmlLang(language)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/interaction/idp.css">
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.value;
}

/** The language of a page answering `request`: `uiLocales` (OIDC `ui_locales`) if any fits, else Accept-Language. */
export function languageOf(request: FastifyRequest, uiLocales?: unknown): SupportedLocale {
  return chooseIdpLanguage({ uiLocales, acceptLanguage: request.headers['accept-language'] });
}

/** Sends a page of the sign-in flow: never cached, it answers what one request sent. */
export function sendHtml(reply: FastifyReply, body: string, status = 200) {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}

/** The identity provider's sign-in page: plain HTML, no script, works without JavaScript. */
export function renderSignInPage(options: {
  language: SupportedLocale;
  action: string;
  email?: string;
  error?: 'wrongCredentials' | 'noOrganization' | 'tooManyAttempts';
}): string {
  const { signIn } = IDP_MESSAGES[options.language];
  return page(
    options.language,
    signIn.title,
    html`${options.error ? html`<p role="alert">${signIn[options.error]}</p>` : ''}
<form method="post" action="${options.action}">
<label for="email">${signIn.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${options.email ?? ''}">
<label for="password">${signIn.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${signIn.submit}</button>
</form>`,
  );
}

/** For a person who belongs to several organisations: which one to sign in to. */
export function renderChooseOrganizationPage(options: {
  language: SupportedLocale;
  action: string;
  organizations: { userId: string; orgName: string }[];
}): string {
  const { chooseOrganization } = IDP_MESSAGES[options.language];
  return page(
    options.language,
    chooseOrganization.title,
    html`<form method="post" action="${options.action}">
<fieldset>
<legend>${chooseOrganization.legend}</legend>
${options.organizations.map(
  (org, index) =>
    html`<label class="choice"><input type="radio" name="membership" value="${org.userId}" ${index === 0 ? html`checked` : ''}> ${org.orgName}</label>`,
)}
</fieldset>
<button type="submit">${chooseOrganization.submit}</button>
</form>`,
  );
}

/** oidc-provider's sign-out confirmation, in our look; `form` is the provider's own hidden form. */
export function renderSignOutPage(language: SupportedLocale, form: string): string {
  const { signOut } = IDP_MESSAGES[language];
  return page(
    language,
    signOut.title,
    html`${new Html(form)}
<p>${signOut.question}</p>
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">${signOut.confirm}</button>
<button class="secondary" type="submit" form="op.logoutForm">${signOut.stay}</button>`,
  );
}

export function renderSignedOutPage(language: SupportedLocale): string {
  const { signedOut } = IDP_MESSAGES[language];
  return page(language, signedOut.title, html`<p>${signedOut.text}</p><p><a href="/">${signedOut.signInAgain}</a></p>`);
}

/**
 * An error of the sign-in flow: what happened in the reader's language, the OAuth error code, and
 * the provider's own description, which is English, under "Technical details" marked as such.
 */
export function renderErrorPage(language: SupportedLocale, error: string, description: string | undefined): string {
  const messages = IDP_MESSAGES[language].error;
  return page(
    language,
    messages.title,
    html`<p role="alert">${messages.text}</p>
<p>${messages.code} <code>${error}</code></p>
${description ? html`<details><summary>${messages.details}</summary><p lang="en">${description}</p></details>` : ''}
<p><a href="/">${messages.home}</a></p>`,
  );
}
