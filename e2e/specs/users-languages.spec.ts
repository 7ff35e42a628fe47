import { deDE, enUS, esES, frFR, itIT, jaJP, nlNL, ptBR, zhCN } from '@mui/material/locale';
import { SUPPORTED_LOCALES, type SupportedLocale } from '@users-admin/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import de from '../../apps/web/src/locales/de/translation.json';
import en from '../../apps/web/src/locales/en/translation.json';
import es from '../../apps/web/src/locales/es/translation.json';
import fr from '../../apps/web/src/locales/fr/translation.json';
import itTexts from '../../apps/web/src/locales/it/translation.json';
import ja from '../../apps/web/src/locales/ja/translation.json';
import { flatten, type Tree } from '../../apps/web/src/locales/locale-tree.ts';
import nl from '../../apps/web/src/locales/nl/translation.json';
import pt from '../../apps/web/src/locales/pt/translation.json';
import { SAME_AS_ENGLISH } from '../../apps/web/src/locales/same-as-english.ts';
import zh from '../../apps/web/src/locales/zh/translation.json';
import { screenshot, signInByRequests } from '../support/browser.ts';
import { changeDatabase, createAccount, DEMO_ORGS } from '../support/database.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Over 300 lines: one walk of the page per language, and the helpers that find English left on screen.

// SPEC.md §9: the session's locale picks one of nine languages. For each, an account whose
// locale is that language signs in, and the page must read in that language: the texts the page
// shows are that language's translations, `<html lang dir>` follow it, and no English text of the
// page (or of MUI's English defaults) is left on screen, unless the language rightly says the same
// (the short, commented allow-list in apps/web/src/locales/same-as-english.ts).

const TRANSLATIONS: Record<SupportedLocale, Tree> = { de, en, es, fr, it: itTexts, ja, nl, pt, zh };
const MUI_LOCALES = { de: deDE, en: enUS, es: esES, fr: frFR, it: itIT, ja: jaJP, nl: nlNL, pt: ptBR, zh: zhCN };
/** `<html lang>` where the texts are of one variety (apps/web/src/app/i18n.ts). */
const DOCUMENT_LANG: Partial<Record<SupportedLocale, string>> = { pt: 'pt-BR', zh: 'zh-Hans' };

const accountFor = (language: SupportedLocale) => ({
  email: `admin.${language}@languages.example`,
  password: 'admin',
  // No word of the page's English in a name, so that the name cannot pass for an untranslated text.
  name: `Lang ${language.toUpperCase()}`,
});

/** MUI's own default texts of a locale (strings only: functions build texts from numbers). */
function muiTexts(localization: object): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') for (const inner of Object.values(value)) walk(inner);
  };
  walk(localization);
  return out;
}

/** A text of `language`: the key itself, or for a plural form missing in the language, its `_other`. */
function textOf(texts: Map<string, string>, key: string): string | undefined {
  return texts.get(key) ?? texts.get(key.replace(/_(zero|one|two|few|many)$/, '_other'));
}

/** Fills `{{name}}` and `{{name, number}}` as the page does (numbers formatted for the language). */
function fill(text: string, values: Record<string, string | number>, language: string): string {
  return text.replace(/\{\{\s*(\w+)\s*(?:,\s*number\s*)?\}\}/g, (_match, name: string) => {
    const value = values[name];
    return typeof value === 'number' ? new Intl.NumberFormat(language).format(value) : String(value);
  });
}

const patterns = new Map<string, RegExp>();
/** A pattern that finds an English text on screen, whatever its placeholders were filled with. */
function englishPattern(text: string): RegExp {
  let pattern = patterns.get(text);
  if (!pattern) {
    pattern = compileEnglishPattern(text);
    patterns.set(text, pattern);
  }
  return pattern;
}

function compileEnglishPattern(text: string): RegExp {
  const parts = text.split(/\{\{[^}]*\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const body = parts.join('[\\s\\S]{1,80}?');
  // Whole words only, but next to any non-Latin letter (a CJK text) an English word still counts.
  const before = /^[A-Za-z0-9]/.test(text) ? '(?<![\\p{Script=Latin}\\p{N}])' : '';
  const after = /[A-Za-z0-9]$/.test(text) ? '(?![\\p{Script=Latin}\\p{N}])' : '';
  return new RegExp(`${before}${body}${after}`, 'u');
}

const suite = new Suite();
beforeAll(() =>
  suite.start({
    // One account per language, each a System Admin of Globex.
    prepare: (dataDir) =>
      changeDatabase(dataDir, async (db) => {
        for (const language of SUPPORTED_LOCALES) {
          const account = accountFor(language);
          await createAccount(db, {
            ...account,
            firstName: 'Lang',
            lastName: language.toUpperCase(),
            locale: language,
            memberships: [{ orgId: DEMO_ORGS.globex.id, isSystemAdmin: true }],
          });
        }
      }),
  }),
);
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** The Users page, signed in as the language's account. */
function signInIn(language: SupportedLocale): Promise<UsersPage> {
  const { email, password } = accountFor(language);
  return suite.open({
    as: null,
    setup: (users) => signInByRequests(users.context, suite.baseUrl, { email, password }),
  });
}

/** Everything a person or a screen reader gets as text: what is rendered, and the naming attributes. */
function screenTexts(users: UsersPage): Promise<string[]> {
  return users.page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const element of document.querySelectorAll(
      '[aria-label], [placeholder], [title], [alt], [aria-description]',
    )) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'aria-description']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

describe('the page in each of the nine languages (SPEC.md §9)', () => {
  const english = flatten(TRANSLATIONS.en);
  const englishMui = muiTexts(enUS);

  it('every language allows only its listed texts to be the same as English', () => {
    for (const language of SUPPORTED_LOCALES.filter((l) => l !== 'en')) {
      const texts = flatten(TRANSLATIONS[language]);
      const same = [...english].filter(([key, text]) => textOf(texts, key) === text).map(([key]) => key);
      expect(same.sort(), language).toEqual([...(SAME_AS_ENGLISH[language] ?? [])].sort());
    }
  });

  it.each([...SUPPORTED_LOCALES])('%s', async (language) => {
    const texts = flatten(TRANSLATIONS[language]);
    const t = (key: string, values: Record<string, string | number> = {}) => {
      const text = textOf(texts, key);
      if (text === undefined) throw new Error(`${language} has no ${key}`);
      return fill(text, values, language);
    };

    const users = await signInIn(language);
    const { page } = users;
    const list = await users.api();
    const total = list.meta.total_count;
    const range = t('users.pagination.displayedRows', { from: 1, to: 25, count: total });

    /** What is shown, after taking out the people's names and addresses. */
    const shownWithoutPeople = async () => {
      const people = [
        ...list.data.flatMap((user) => [user.attributes.name, user.attributes.email]),
        accountFor(language).name,
      ];
      return (await screenTexts(users)).map((text) => people.reduce((rest, name) => rest.split(name).join(' '), text));
    };
    /** Every text the page's English has, and MUI's English defaults, found in what is shown. */
    const englishLeft = async () => {
      const shown = await shownWithoutPeople();
      const own = new Set([...texts.values(), ...muiTexts(MUI_LOCALES[language])]);
      const left: string[] = [];
      for (const [key, text] of english) {
        // The same words in this language (allow-listed, checked by the first test) are not English left over.
        if (own.has(text)) continue;
        if (shown.some((shownText) => englishPattern(text).test(shownText))) left.push(`${key}: ${text}`);
      }
      for (const text of englishMui) {
        if (own.has(text)) continue;
        if (shown.some((shownText) => englishPattern(text).test(shownText))) left.push(`MUI: ${text}`);
      }
      return left;
    };

    // The page settles in the session's language.
    await expect
      .poll(
        () =>
          page.evaluate(() => ({
            lang: document.documentElement.lang,
            dir: document.documentElement.dir,
            busy: document.querySelector('main [aria-busy]')?.getAttribute('aria-busy'),
            range: document.querySelector('.MuiTablePagination-displayedRows')?.textContent,
          })),
        { timeout: 15_000 },
      )
      .toEqual({ lang: DOCUMENT_LANG[language] ?? language, dir: 'ltr', busy: 'false', range });

    // Title, search box, buttons, column headers, footer.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t('users.title'));
    const search = page.getByRole('searchbox', { name: t('users.search.placeholder') });
    expect(await search.getAttribute('placeholder')).toBe(t('users.search.placeholder'));
    expect(
      (await page.getByRole('button', { name: t('users.actions.button'), exact: true }).textContent())?.trim(),
    ).toBe(t('users.actions.button'));
    const filterButton = page.getByRole('button', { name: t('users.filters.button'), exact: true });
    expect((await filterButton.textContent())?.trim()).toBe(t('users.filters.button'));
    const headers = await page
      .locator('main table thead th')
      .evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));
    expect(headers).toEqual([
      '',
      t('users.columns.user'),
      t('users.columns.dataSource'),
      t('users.columns.status'),
      t('users.columns.userType'),
    ]);
    expect(await page.locator('.MuiTablePagination-selectLabel').textContent()).toBe(t('users.pagination.rowsPerPage'));
    expect(await page.getByRole('combobox', { name: t('users.pagination.rowsPerPage') }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: t('users.pagination.label') }).count()).toBe(1);

    // The rows' words.
    const rows = await users.readRows();
    const sources = new Set([t('users.dataSource.platform'), t('users.dataSource.thirdParty')]);
    const statuses = new Set(['active', 'inactive', 'pending', 'disabled'].map((s) => t(`users.status.${s}`)));
    for (const row of rows) {
      expect(sources.has(row.dataSource), row.dataSource).toBe(true);
      expect(statuses.has(row.status), row.status).toBe(true);
    }

    // The column tooltips, on hover.
    for (const [column, info] of [
      ['users.columns.dataSource', 'users.columns.dataSourceInfo'],
      ['users.columns.status', 'users.columns.statusInfo'],
      ['users.columns.userType', 'users.columns.userTypeInfo'],
    ] as const) {
      await page.getByRole('button', { name: t('users.columns.moreAbout', { column: t(column) }) }).hover();
      const tooltip = page.getByRole('tooltip').filter({ hasText: t(info) });
      await tooltip.waitFor();
      expect(await tooltip.textContent()).toBe(t(info));
    }
    await page.mouse.move(0, 0);

    // The third-party checkbox's tooltip, on keyboard focus.
    const external = rows.find((row) => row.checkbox.disabled);
    if (!external) throw new Error('no third-party user on the first page of Globex');
    const checkbox = page.getByRole('checkbox', { name: t('users.selection.selectRow', { name: external.name }) });
    await checkbox.focus();
    const reason = page.getByRole('tooltip').filter({ hasText: t('users.selection.externalTooltip') });
    await reason.waitFor();
    await checkbox.blur();
    await reason.waitFor({ state: 'hidden' });

    // The filters dialog.
    await filterButton.click();
    const dialog = page.getByRole('dialog', { name: t('users.filters.title') });
    await dialog.waitFor();
    expect(await dialog.getByRole('combobox', { name: t('users.filters.status') }).count()).toBe(1);
    expect(await dialog.getByRole('combobox', { name: t('users.filters.userType') }).count()).toBe(1);
    expect(await dialog.getByRole('combobox', { name: t('users.columns.dataSource') }).count()).toBe(1);
    const lastSignInFilter = dialog.getByRole('combobox', { name: t('users.lastSignIn.column') });
    expect(await lastSignInFilter.textContent()).toBe(t('users.lastSignIn.anyTime'));
    await lastSignInFilter.click();
    const periods = page.getByRole('listbox', { name: t('users.lastSignIn.column') }).getByRole('option');
    expect(await periods.allTextContents()).toEqual([
      t('users.lastSignIn.anyTime'),
      t('users.lastSignIn.filter.30d'),
      t('users.lastSignIn.filter.not90d'),
      t('users.lastSignIn.filter.never'),
    ]);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await dialog.getByRole('button', { name: t('users.filters.clearAll') }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    // The Columns menu: the times it adds are left on screen for the English check below.
    const columnsButton = page.getByRole('button', { name: t('users.columnChoice.button'), exact: true });
    await columnsButton.click();
    const columnsMenu = page.getByRole('menu', { name: t('users.columnChoice.button') });
    await columnsMenu.waitFor();
    expect(await columnsMenu.getByRole('menuitemcheckbox').allTextContents()).toEqual(
      ['user', 'dataSource', 'status', 'userType']
        .map((key) => t(`users.columns.${key}`))
        .concat([t('users.lastSignIn.column'), t('users.created.column')]),
    );
    await columnsMenu.getByRole('menuitemcheckbox', { name: t('users.lastSignIn.column') }).click();
    await columnsMenu.getByRole('menuitemcheckbox', { name: t('users.created.column') }).click();
    await page.keyboard.press('Escape');
    await columnsMenu.waitFor({ state: 'detached' });
    // The time columns' code may still be on its way.
    await page.locator('main table thead th', { hasText: t('users.created.column') }).waitFor();
    expect(
      await page
        .locator('main table thead th')
        .evaluateAll((cells) => cells.slice(-2).map((cell) => (cell as HTMLElement).innerText.trim())),
    ).toEqual([t('users.lastSignIn.column'), t('users.created.column')]);
    // The cells stay empty until that code has come: a last sign-in is a time ("…, …") or Never.
    const lastSignIns = () =>
      users.rows.evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[4]?.textContent ?? ''));
    await expect.poll(async () => (await lastSignIns()).filter((text) => text === '').length).toBe(0);
    for (const text of (await lastSignIns()).filter((cell) => !cell.includes(','))) {
      expect(text).toBe(t('users.lastSignIn.never'));
    }
    await page
      .getByRole('button', { name: t('users.columns.moreAbout', { column: t('users.lastSignIn.column') }) })
      .hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: t('users.lastSignIn.info') })
      .waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });

    // The focus went back to the Filter button; the screenshot shows the page at rest.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    await screenshot(page, `users-language-${language}`);

    // A user's side sheet, with no English in it, and an export's message.
    const firstUser = list.data[0];
    if (!firstUser) throw new Error('Globex has no users');
    await page.getByRole('main').getByRole('link', { name: firstUser.attributes.name, exact: true }).click();
    const sheet = page.getByRole('dialog', { name: firstUser.attributes.name });
    await sheet.getByText(t('users.sheet.fields.lastSignIn'), { exact: true }).waitFor();
    const sheetText = await sheet.innerText();
    for (const field of ['email', 'status', 'userType', 'dataSource', 'lastSignIn', 'created', 'id']) {
      expect(sheetText).toContain(t(`users.sheet.fields.${field}`));
    }
    expect(await sheet.getByRole('button', { name: t('users.sheet.close') }).count()).toBe(1);
    expect(await sheet.getByRole('button', { name: t('users.sheet.copyId') }).count()).toBe(1);
    if (language !== 'en') expect(await englishLeft()).toEqual([]);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    const exportButton = page.getByRole('button', { name: t('users.export.button'), exact: true });
    const download = page.waitForEvent('download');
    await exportButton.click();
    const file = await download;
    const exported = t('users.export.done_other', { count: total, file: file.suggestedFilename() });
    await page.getByRole('status').filter({ hasText: exported }).waitFor();

    // An alert: an action chosen with nothing selected. It stays on screen for the English check below.
    await page.getByRole('button', { name: t('users.actions.button'), exact: true }).click();
    await page.getByRole('menuitem').last().click();
    const alert = page.getByRole('alert').filter({ hasText: t('users.actions.noSelection') });
    await alert.waitFor();
    expect((await alert.textContent())?.trim()).toBe(t('users.actions.noSelection'));

    // No English text left on screen, with the export's message there too.
    if (language === 'en') {
      // The check itself finds English: the English page shows its title, search placeholder and footer.
      const shown = await shownWithoutPeople();
      for (const key of ['users.title', 'users.search.placeholder', 'users.pagination.rowsPerPage']) {
        expect(
          shown.some((text) => englishPattern(english.get(key) ?? '').test(text)),
          key,
        ).toBe(true);
      }
      return;
    }
    expect(await englishLeft()).toEqual([]);
  });
});
