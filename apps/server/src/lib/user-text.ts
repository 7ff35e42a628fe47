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
 * What the index of `search_grams()` (0001-baseline) finds a search's candidates by: its distinct pairs
 * of adjacent characters, or the character itself when it is one outside ASCII; none for one ASCII
 * letter or digit, which most users hold.
 */
export function searchGrams(text: string): string[] {
  const characters = [...text];
  if (characters.length === 1) return text > '\u007f' ? [text] : [];
  return [...new Set(characters.slice(1).map((character, i) => `${characters[i]}${character}`))];
}

/**
 * What `search_grams()` holds for a text: its pairs of adjacent characters and each character outside
 * ASCII, added to `into`. By UTF-16 index, not by an array of characters: a bulk seed runs it on every user.
 */
export function textGrams(text: string, into = new Set<string>()): Set<string> {
  let previous = -1;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    const low = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    const width = code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
    if (previous >= 0) into.add(text.slice(previous, i + width));
    if (code > 0x7f) into.add(text.slice(i, i + width));
    previous = i;
    i += width;
  }
  return into;
}
