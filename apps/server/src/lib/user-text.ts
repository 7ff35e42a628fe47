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

/** The longest search whose total is kept as a count of grams (migration 0005). */
export const MAX_GRAM_LENGTH = 3;

/**
 * The distinct 1- to 3-character substrings of a search text, by code point as PostgreSQL's
 * `substr` counts, without the separator: the same set as the database's `search_grams()`.
 */
export function searchGrams(text: string): Set<string> {
  const characters = /^\p{ASCII}*$/u.test(text) ? text : [...text];
  const grams = new Set<string>();
  for (let start = 0; start < characters.length; start++) {
    let gram = '';
    for (let end = start; end < start + MAX_GRAM_LENGTH && end < characters.length; end++) {
      const character = characters[end] as string;
      if (character === SEARCH_SEPARATOR) break;
      gram += character;
      grams.add(gram);
    }
  }
  return grams;
}
