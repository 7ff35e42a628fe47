// @vitest-environment node
import { SUPPORTED_LOCALES } from '@users-admin/contract';
import { describe, expect, it } from 'vitest';
import { flatten, type Tree } from './locale-tree.ts';
import { SAME_AS_ENGLISH } from './same-as-english.ts';
import { PLURAL_CATEGORIES } from './translation-types.ts';

/*
 * The typecheck already refuses a language without one of English's texts (translation-types.ts).
 * These tests add what a type cannot see: the plural forms each language needs by its own plural
 * rules, keys English does not have, placeholders, and English left in another language.
 */

const files = import.meta.glob<Tree>('./*/translation.json', { eager: true, import: 'default' });
const locales = Object.fromEntries(
  Object.entries(files).map(([path, tree]) => [path.split('/')[1] as string, tree] as const),
);
const en = locales.en as Tree;
const LANGUAGES = SUPPORTED_LOCALES.filter((language) => language !== 'en');

const PLURAL_SUFFIX = new RegExp(`_(${PLURAL_CATEGORIES.join('|')})$`);

/** The key of a plural family without its suffix, or undefined for a key that is not a plural form. */
function pluralBase(key: string): string | undefined {
  return PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, '') : undefined;
}

/** English's keys as `language` must have them: each plural family in that language's categories. */
function expectedKeys(language: string): string[] {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of flatten(en).keys()) {
    const base = pluralBase(key);
    if (base === undefined) keys.add(key);
    else for (const category of categories) keys.add(`${base}_${category}`);
  }
  return [...keys].sort();
}

/** `{{name}}` and `{{name, format}}` placeholders, as name → format. */
function placeholders(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,\s*([^}]+?))?\s*\}\}/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
  );
}

/** English's text for a key of another language: the same plural form if English has it, else `_other`. */
function englishFor(key: string, english: Map<string, string>): string | undefined {
  const base = pluralBase(key);
  return english.get(key) ?? (base === undefined ? undefined : english.get(`${base}_other`));
}

describe('translations', () => {
  it('exist for exactly the supported languages', () => {
    expect(Object.keys(locales).sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it.each([...SUPPORTED_LOCALES])('%s has every key of English, in its own plural forms, and no other', (language) => {
    const actual = [...flatten(locales[language] as Tree).keys()].sort();
    const expected = expectedKeys(language);
    expect({ missing: expected.filter((key) => !actual.includes(key)) }).toEqual({ missing: [] });
    expect({ unknown: actual.filter((key) => !expected.includes(key)) }).toEqual({ unknown: [] });
  });

  it.each(LANGUAGES)('%s keeps the placeholders and number formats of English', (language) => {
    const english = flatten(en);
    const problems: string[] = [];
    for (const [key, text] of flatten(locales[language] as Tree)) {
      const base = pluralBase(key);
      // A plural form may leave out the count ("the only user"), but never invent a placeholder.
      const family = base === undefined ? [key] : [...english.keys()].filter((k) => pluralBase(k) === base);
      const allowed = new Map(family.flatMap((k) => [...placeholders(english.get(k) ?? '')]));
      const used = placeholders(text);
      for (const [name, format] of used) {
        if (!allowed.has(name)) problems.push(`${key}: {{${name}}} is not in English`);
        else if (allowed.get(name) !== format) problems.push(`${key}: {{${name}}} is not formatted as in English`);
      }
      if (base === undefined) {
        for (const name of allowed.keys()) if (!used.has(name)) problems.push(`${key}: {{${name}}} is missing`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(LANGUAGES)('%s leaves no text in English', (language) => {
    const english = flatten(en);
    const allowed = SAME_AS_ENGLISH[language] ?? [];
    const same = [...flatten(locales[language] as Tree)]
      .filter(([key, text]) => text === englishFor(key, english))
      .map(([key]) => key);
    expect(same.sort()).toEqual([...allowed].sort());
  });

  it.each(['ja', 'zh'])('%s writes every text in its own script', (language) => {
    const latinOnly = [...flatten(locales[language] as Tree)]
      .filter(([, text]) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text))
      .map(([key]) => key);
    expect(latinOnly).toEqual([]);
  });

  it('has no empty text in any language', () => {
    const empty = Object.entries(locales).flatMap(([language, tree]) =>
      [...flatten(tree)].filter(([, text]) => text.trim() === '').map(([key]) => `${language}:${key}`),
    );
    expect(empty).toEqual([]);
  });
});
