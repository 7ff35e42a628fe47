import { readFileSync } from 'node:fs';
import { SUPPORTED_LOCALES } from '@users-admin/contract';
import { glossaryProblems, parseGlossary } from '@users-admin/contract/glossary';
import { describe, expect, it } from 'vitest';
import { INVITATION_MESSAGES } from '../auth/invitation-messages.ts';
import { renderChoosePasswordPage, renderInvitationProblemPage } from '../auth/invitation-sign-in.ts';
import { expiryInWords, renderInvitationMail } from './invitation-mail.ts';

const flatten = (messages: object): Map<string, string> => new Map(Object.entries(messages));
/** Texts rightly the same as in English: Italian says "Password". */
const SAME_AS_ENGLISH: Partial<Record<string, readonly string[]>> = { it: ['password'] };
const others = SUPPORTED_LOCALES.filter((language) => language !== 'en');

describe('the invitation texts (e-mail and pages)', () => {
  const messages = INVITATION_MESSAGES;
  const english = flatten(messages.en);

  it.each(others)('%s has every text with its placeholders, none in English', (language) => {
    const texts = flatten(messages[language]);
    expect([...texts.keys()].sort()).toEqual([...english.keys()].sort());
    const placeholders = (text = '') => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const [key, text] of texts) expect(placeholders(text), key).toEqual(placeholders(english.get(key)));
    const same = [...texts].filter(([key, text]) => text === english.get(key)).map(([key]) => key);
    expect(same).toEqual([...(SAME_AS_ENGLISH[language] ?? [])]);
  });

  it.each(others)('%s follows its glossary', (language) => {
    const glossary = readFileSync(new URL(`../../../../docs/glossary/${language}.md`, import.meta.url), 'utf8');
    expect(glossaryProblems(parseGlossary(glossary), english, flatten(messages[language]))).toEqual([]);
  });

  it.each(['ja', 'zh'] as const)('%s writes every text in its own script', (language) => {
    const latin = [...flatten(messages[language]).values()].filter(
      (text) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text),
    );
    expect(latin).toEqual([]);
  });
});

describe('renderInvitationMail', () => {
  const input = {
    name: 'Zoë <Z>',
    inviter: 'Ada\r\nBcc: evil@example.com',
    org: 'Acme & Co',
    link: 'https://users.example/invitations/abc',
    expiresAt: new Date('2026-12-05T09:30:00Z'),
  };

  it.each(SUPPORTED_LOCALES)('in %s names the organisation, the inviter, the link and its expiry', (language) => {
    const mail = renderInvitationMail({ ...input, language });
    const date = expiryInWords(language, input.expiresAt);
    expect(date).toMatch(/2026/);
    for (const part of [mail.text_body, mail.html_body]) {
      expect(part).toContain(input.link);
      expect(part).toContain(language === 'en' ? date : date.slice(0, 4));
    }
    expect(mail.text_body).toContain('Acme & Co');
    expect(mail.html_body).toContain('Acme &amp; Co');
    expect(mail.html_body).toContain('Zoë &lt;Z&gt;');
    expect(mail.text_body).toContain('Ada Bcc: evil@example.com');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html_body).toContain(
      `lang="${language === 'pt' ? 'pt-BR' : language === 'zh' ? 'zh-Hans' : language}"`,
    );
  });

  it('says when the link expires in the reader’s words', () => {
    const mail = renderInvitationMail({ ...input, language: 'en' });
    expect(mail.subject).toBe('Invitation to join Acme & Co');
    expect(mail.text_body).toContain('The link works once and expires on December 5, 2026 at 09:30 AM UTC.');
    expect(renderInvitationMail({ ...input, language: 'de' }).text_body).toContain('5. Dezember 2026');
  });
});

describe('the invitation pages', () => {
  it('ask for a password twice, escaping what the organisation and address hold', () => {
    const page = renderChoosePasswordPage({
      language: 'fr',
      action: '/interaction/x/invitation',
      orgName: '<Acme>',
      email: 'a"b@example.com',
      error: 'tooShort',
    });
    expect(page).toContain('<p role="alert">Le mot de passe doit comporter au moins 8 caractères.</p>');
    expect(page).toContain('&lt;Acme&gt;');
    expect(page).toContain('value="a&quot;b@example.com"');
    expect(page.match(/type="password"/g)).toHaveLength(2);
  });

  it.each(['expired', 'used', 'replaced', 'invalid'] as const)('say what to do with a link %s', (problem) => {
    const page = renderInvitationProblemPage('en', problem);
    expect(page).toContain(INVITATION_MESSAGES.en[`${problem}Title`]);
    expect(page).toContain(INVITATION_MESSAGES.en[problem]);
  });
});
