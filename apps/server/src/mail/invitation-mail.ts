import type { SupportedLocale } from '@users-admin/contract';
import { htmlLang } from '../auth/idp-messages.ts';
import { fill, INVITATION_MESSAGES } from '../auth/invitation-messages.ts';
import { html } from '../auth/sign-in-page.ts';

type MailInput = Record<'name' | 'inviter' | 'org' | 'link', string> & { language: SupportedLocale; expiresAt: Date };

/** When the link expires, in the reader's language; in UTC, as the mail cannot know their time zone. */
export const expiryInWords = (language: SupportedLocale, expiresAt: Date) =>
  new Intl.DateTimeFormat(htmlLang(language), {
    ...{ year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' },
    ...{ timeZone: 'UTC', timeZoneName: 'short' },
  }).format(expiresAt);

/** The invitation e-mail, plain text and HTML, in the invitee's language: the outbox's columns. */
export function renderInvitationMail(input: MailInput) {
  // A header holds one line: a name with a line break must not add one.
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const { name, inviter, org, language, link } = input;
  const date = expiryInWords(language, input.expiresAt);
  const values = { name: oneLine(name), inviter: oneLine(inviter), org: oneLine(org), date };
  const texts = INVITATION_MESSAGES[language];
  const t = (key: keyof typeof texts) => fill(texts[key], values);
  const text = [t('greeting'), '', t('invited'), t('action'), link, '', t('expiry'), t('ignore'), ''].join('\n');
  const body = html`<!doctype html>
<html lang="${htmlLang(language)}"><head><meta charset="utf-8"><title>${t('subject')}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1a1a1a; line-height: 1.5">
<p>${t('greeting')}</p><p>${t('invited')}</p><p>${t('action')}</p>
<p><a href="${link}" style="display: inline-block; padding: 10px 16px; background: #1565c0; color: #fff; border-radius: 4px; text-decoration: none; font-weight: 600">${t('button')}</a></p>
<p style="word-break: break-all"><a href="${link}">${link}</a></p>
<p>${t('expiry')}</p><p style="color: #4a4a4a">${t('ignore')}</p>
</body></html>`;
  return { subject: t('subject'), text_body: text, html_body: body.value };
}
