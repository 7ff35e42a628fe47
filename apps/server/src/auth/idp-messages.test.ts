import { readFileSync } from 'node:fs';
import { SUPPORTED_LOCALES } from '@users-admin/contract';
import { glossaryProblems, parseGlossary } from '@users-admin/contract/glossary';
import { describe, expect, it } from 'vitest';
import { chooseIdpLanguage, IDP_MESSAGES } from './idp-messages.ts';
import {
  renderChooseOrganizationPage,
  renderErrorPage,
  renderSignedOutPage,
  renderSignInPage,
  renderSignOutPage,
} from './sign-in-page.ts';

const flatten = (messages: object): Map<string, string> =>
  new Map(
    Object.entries(messages).flatMap(([group, texts]) =>
      Object.entries(texts as Record<string, string>).map(([key, text]) => [`${group}.${key}`, text] as const),
    ),
  );

/** Texts rightly the same as in English: Italian administrators say "Password". */
const SAME_AS_ENGLISH: Partial<Record<string, readonly string[]>> = { it: ['signIn.password'] };

describe('chooseIdpLanguage', () => {
  it.each([
    [{ uiLocales: 'ja' }, 'ja'],
    [{ uiLocales: 'pt-BR' }, 'pt'],
    [{ uiLocales: 'tlh ar-EG zh-CN fr' }, 'zh'],
    [{ uiLocales: 'de', acceptLanguage: 'fr-FR,fr;q=0.9' }, 'de'],
    [{ uiLocales: 'pl', acceptLanguage: 'fr-FR,fr;q=0.9' }, 'fr'],
    [{ acceptLanguage: 'de-AT,de;q=0.9,en;q=0.8' }, 'de'],
    [{ acceptLanguage: 'en_US' }, 'en'],
    [{ acceptLanguage: 'pl;q=1, it;q=0.5, nl;q=0.7' }, 'nl'],
    [{ acceptLanguage: 'es;q=0, *;q=0.8, it;q=0.1' }, 'it'],
    [{ acceptLanguage: ['ru', 'es-419'] }, 'es'],
    [{ acceptLanguage: 'ru, ar' }, 'en'],
    [{ uiLocales: 42 }, 'en'],
    [{}, 'en'],
  ])('%o → %s', (request, language) => {
    expect(chooseIdpLanguage(request)).toBe(language);
  });
});

describe('IDP_MESSAGES', () => {
  const english = flatten(IDP_MESSAGES.en);

  it('speaks exactly the supported languages', () => {
    expect(Object.keys(IDP_MESSAGES).sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it.each(SUPPORTED_LOCALES.filter((language) => language !== 'en'))(
    '%s has every text, none in English',
    (language) => {
      const texts = flatten(IDP_MESSAGES[language]);
      expect([...texts.keys()].sort()).toEqual([...english.keys()].sort());
      expect([...texts.values()].filter((text) => text.trim() === '')).toEqual([]);
      const same = [...texts].filter(([key, text]) => text === english.get(key)).map(([key]) => key);
      expect(same.sort()).toEqual([...(SAME_AS_ENGLISH[language] ?? [])].sort());
    },
  );

  it.each(SUPPORTED_LOCALES.filter((language) => language !== 'en'))('%s follows its glossary', (language) => {
    const glossary = readFileSync(new URL(`../../../../docs/glossary/${language}.md`, import.meta.url), 'utf8');
    expect(glossaryProblems(parseGlossary(glossary), english, flatten(IDP_MESSAGES[language]))).toEqual([]);
  });

  it.each(['ja', 'zh'] as const)('%s writes every text in its own script', (language) => {
    const latin = [...flatten(IDP_MESSAGES[language]).values()].filter(
      (text) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text),
    );
    expect(latin).toEqual([]);
  });
});

describe('the identity provider pages', () => {
  it('label the English sign-in form exactly Email, Password and Sign in', () => {
    const page = renderSignInPage({ language: 'en', action: '/interaction/x/login' });
    expect(page).toContain('<html lang="en" dir="ltr">');
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toContain('<label for="password">Password</label>');
    expect(page).toContain('<button type="submit">Sign in</button>');
  });

  it('render the sign-in form and its errors in the chosen language', () => {
    const page = renderSignInPage({
      language: 'de',
      action: '/interaction/x/login',
      email: 'a"b@example.com',
      error: 'wrongCredentials',
    });
    expect(page).toContain('<html lang="de" dir="ltr">');
    expect(page).toContain('<title>Anmelden</title>');
    expect(page).toContain('<label for="email">E-Mail-Adresse</label>');
    expect(page).toContain('<label for="password">Passwort</label>');
    expect(page).toContain('<p role="alert">Die E-Mail-Adresse oder das Passwort ist nicht korrekt.</p>');
    expect(page).toContain('value="a&quot;b@example.com"');
    expect(renderSignInPage({ language: 'fr', action: '/', error: 'noOrganization' })).toContain(
      'Ce compte n’est actif dans aucune organisation.',
    );
  });

  it('render the choice of organisation, sign-out and signed-out pages in the chosen language', () => {
    const choose = renderChooseOrganizationPage({
      language: 'ja',
      action: '/interaction/x/organization',
      organizations: [{ userId: 'u1', orgName: 'Globex' }],
    });
    expect(choose).toContain('<html lang="ja"');
    expect(choose).toContain('<h1>組織を選択</h1>');
    expect(choose).toContain('value="u1" checked> Globex</label>');
    expect(choose).toContain('<button type="submit">続行</button>');

    const signOut = renderSignOutPage('nl', '<form id="op.logoutForm"></form>');
    expect(signOut).toContain('<form id="op.logoutForm"></form>');
    expect(signOut).toContain('<p>Wilt u zich afmelden?</p>');
    expect(signOut).toContain('>Aangemeld blijven</button>');
    expect(renderSignedOutPage('pt')).toContain('<html lang="pt-BR"');
    expect(renderSignedOutPage('pt')).toContain('<a href="/">Fazer login novamente</a>');
  });

  it('explain an error in the chosen language and keep the provider’s English detail marked as English', () => {
    const page = renderErrorPage('zh', 'invalid_request', 'missing <required> parameter');
    expect(page).toContain('<html lang="zh-Hans"');
    expect(page).toContain('<p role="alert">无法完成登录。请返回页面并重试。</p>');
    expect(page).toContain('<code>invalid_request</code>');
    expect(page).toContain('<summary>技术详细信息</summary><p lang="en">missing &lt;required&gt; parameter</p>');
    expect(renderErrorPage('es', 'server_error', undefined)).not.toContain('<details>');
  });
});
