/** The name folded for people's order: decomposed, accents dropped, lower case. */
export function sortName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** U+001F (unit separator) joins name and email so that no search can match across the two. */
export const SEARCH_SEPARATOR = '\u001f';

/** The one expression a search matches by substring: lower-case name and email. */
export function searchText(name: string, email: string): string {
  return `${name.toLowerCase()}${SEARCH_SEPARATOR}${email.toLowerCase()}`;
}

/** Escapes LIKE's metacharacters so that `%`, `_` and `\` match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * The punctuation of names and addresses and the pair of letters each becomes in the text the trigram
 * index reads (the database's `search_words()`, 0001-baseline): pg_trgm takes trigrams from runs of
 * letters and digits only, so that "o@" or "0.4" has trigrams too. A pair is "ǂ", a letter no name
 * holds (so that no search of real letters matches a pair), and a letter for the punctuation.
 */
const WORD_BREAKS: Readonly<Record<string, string>> = {
  ' ': 'ǂa',
  '.': 'ǂb',
  '@': 'ǂc',
  '-': 'ǂd',
  _: 'ǂe',
  "'": 'ǂf',
  '+': 'ǂg',
  ',': 'ǂh',
};

/** A text as the trigram index reads it: the database's `search_words()`. */
export function searchWords(text: string): string {
  return Array.from(text, (character) => WORD_BREAKS[character] ?? character).join('');
}
