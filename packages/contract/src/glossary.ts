/**
 * The glossaries of docs/glossary/<language>.md, read by the tests of the page's and the sign-in
 * pages' texts: a text whose English names a term must name it with the language's word for it,
 * and no text may use a word the glossary rules out.
 */

export interface GlossaryTerm {
  /** The English forms ("sign in", "Active"): a text naming one names the term; a capital must match. */
  english: string[];
  /** The language's accepted forms or stems, lower case: a translation must contain one. */
  forms: string[];
  /** Words the language must not use for anything on the page ("eliminar" where remove is meant). */
  never: string[];
}

const split = (cell: string | undefined) =>
  (cell ?? '')
    .split('/')
    .map((part) => part.replace(/`/g, '').trim())
    .filter((part) => part !== '' && part !== '—');
const lower = (forms: string[]) => forms.map((form) => form.toLowerCase());

/** The rows of a glossary's table: `| English forms | forms | never |`, each cell's forms split by `/`. */
export function parseGlossary(markdown: string): GlossaryTerm[] {
  const rows = markdown
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
    .map((line) => line.trim().slice(1, -1).split('|'));
  // The first row names the columns, the second underlines them.
  return rows.slice(2).map(([english, forms, never]) => ({
    english: split(english),
    forms: lower(split(forms)),
    never: lower(split(never)),
  }));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a text names a form as a whole word (so "user" is not found in "username"), in any case
 * unless the form has a capital ("Active" the status, not "1 active filter").
 */
function namesTerm(text: string, form: string): boolean {
  // Chinese and Japanese put no spaces between words: any occurrence is one.
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(form)) return text.includes(form);
  return new RegExp(`(^|[^\\p{L}])${escapeRegExp(form)}($|[^\\p{L}])`, form === form.toLowerCase() ? 'iu' : 'u').test(
    text,
  );
}

/**
 * What breaks the glossary among `texts` (key → translation), with `english` (key → English text):
 * a term named in English and missing from the translation, or a word the glossary rules out.
 */
export function glossaryProblems(
  terms: readonly GlossaryTerm[],
  english: ReadonlyMap<string, string>,
  texts: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  for (const [key, text] of texts) {
    const source = english.get(key) ?? english.get(key.replace(/_[a-z]+$/, '_other'));
    const lowerText = text.toLowerCase();
    for (const term of terms) {
      const named = source !== undefined && term.english.some((form) => namesTerm(source, form));
      if (named && !term.forms.some((form) => lowerText.includes(form))) {
        problems.push(`${key}: "${text}" does not say ${term.forms[0]} (${term.english[0]})`);
      }
      for (const word of term.never) {
        if (namesTerm(text, word)) problems.push(`${key}: "${text}" uses "${word}" (glossary: ${term.forms[0]})`);
      }
    }
  }
  return problems;
}
