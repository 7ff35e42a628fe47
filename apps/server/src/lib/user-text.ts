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
