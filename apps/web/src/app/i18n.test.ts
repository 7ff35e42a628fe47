import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberedLanguage } from '../lib/i18n/remembered-language.ts';
import { applyLocale, muiLocalization, resolveLanguage } from './i18n.ts';

afterEach(async () => {
  await applyLocale('en');
  window.localStorage.clear();
});

describe('resolveLanguage', () => {
  it.each([
    ['de', 'de'],
    ['pt-BR', 'pt'],
    ['zh-CN', 'zh'],
    ['zh_Hans_CN', 'zh'],
    ['de-AT', 'de'],
    ['en_US', 'en'],
    ['FR-ca', 'fr'],
    [' ja ', 'ja'],
    ['ar', 'en'],
    ['pl-PL', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [null, 'en'],
  ])('%s → %s', (locale, language) => {
    expect(resolveLanguage(locale)).toBe(language);
  });
});

describe('applyLocale', () => {
  it('loads the language on demand and shows the page in it, <html lang dir> included', async () => {
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
    await applyLocale('de-AT');
    expect(i18n.language).toBe('de');
    expect(i18n.t('users.title')).toBe('Benutzer');
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dir).toBe('ltr');
    expect(muiLocalization('de')?.components?.MuiAlert?.defaultProps.closeText).toBe('Schließen');
    expect(rememberedLanguage()).toBe('de');
  });

  it('names the variety of Portuguese and Chinese the texts are written in', async () => {
    await applyLocale('pt');
    expect(document.documentElement.lang).toBe('pt-BR');
    await applyLocale('zh-TW');
    expect(i18n.language).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-Hans');
  });

  it('falls back to English for a language the page does not speak', async () => {
    await applyLocale('fr');
    await applyLocale('pl-PL');
    expect(i18n.language).toBe('en');
    expect(i18n.t('users.title')).toBe('Users');
    expect(document.documentElement.lang).toBe('en');
  });

  it('stays in the language it has when a language cannot be downloaded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const addResourceBundle = vi.spyOn(i18n, 'addResourceBundle').mockImplementationOnce(() => {
      throw new Error('chunk failed');
    });
    await applyLocale('nl');
    expect(i18n.language).toBe('en');
    expect(warn).toHaveBeenCalledOnce();
    addResourceBundle.mockRestore();
    warn.mockRestore();
  });

  it('lets the last of two overlapping switches win', async () => {
    await Promise.all([applyLocale('ja'), applyLocale('it')]);
    expect(i18n.language).toBe('it');
    expect(document.documentElement.lang).toBe('it');
  });
});

describe('formatting in the language', () => {
  it('formats the range label and totals with the language’s digits grouping', async () => {
    const range = { from: 1, to: 25, count: 1234 };
    expect(i18n.t('users.pagination.displayedRows', range)).toBe('1–25 of 1,234');
    await applyLocale('de');
    expect(i18n.t('users.pagination.displayedRows', range)).toBe('1–25 von 1.234');
    await applyLocale('fr');
    expect(i18n.t('users.pagination.displayedRows', range)).toBe('1–25 sur 1\u202f234');
    await applyLocale('ja');
    expect(i18n.t('users.pagination.displayedRows', range)).toBe('1～25件目（全1,234件）');
  });

  it('chooses each language’s plural form', async () => {
    await applyLocale('fr');
    expect(i18n.t('users.selection.selected', { count: 1 })).toBe('1 sélectionné');
    expect(i18n.t('users.selection.selected', { count: 2 })).toBe('2 sélectionnés');
    expect(i18n.t('users.selection.allSelected', { count: 1_000_000 })).toBe(
      'Les 1\u202f000\u202f000 utilisateurs sont sélectionnés',
    );
    await applyLocale('zh');
    expect(i18n.t('users.selection.selected', { count: 1 })).toBe('已选择 1 位用户');
    await applyLocale('de');
    expect(i18n.t('users.filters.buttonLabel', { count: 1 })).toBe('Filter, 1 aktiver Filter');
    expect(i18n.t('users.filters.buttonLabel', { count: 2 })).toBe('Filter, 2 aktive Filter');
  });
});
