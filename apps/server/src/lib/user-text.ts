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
 * The e-mail domain of a search text: what follows its last `@`, or nothing without one (the
 * database's `search_domain()`). The search text is its head (`users.search_head`) followed by its
 * domain, and the head ends with that `@`: so a search without `@` matches a user exactly when it is
 * in the head or in the domain, and one user's domain is most users' (migration 0007).
 */
export function searchDomain(text: string): string {
  const at = text.lastIndexOf('@');
  return at < 0 ? '' : text.slice(at + 1);
}

/**
 * The key under which `user_search_grams` keeps how many users have a domain: the separator, which
 * no gram holds, and the domain.
 */
export function domainKey(domain: string): string {
  return `${SEARCH_SEPARATOR}${domain}`;
}

/**
 * Calls `visit` with each 1- to 3-character substring of a search text, by code point as
 * PostgreSQL's `substr` counts, without the separator (a substring may come more than once), and
 * with the key of its e-mail domain.
 */
export function forEachSearchGram(text: string, visit: (gram: string) => void): void {
  const characters = /^\p{ASCII}*$/u.test(text) ? text : [...text];
  for (let start = 0; start < characters.length; start++) {
    let gram = '';
    for (let end = start; end < start + MAX_GRAM_LENGTH && end < characters.length; end++) {
      const character = characters[end] as string;
      if (character === SEARCH_SEPARATOR) break;
      gram += character;
      visit(gram);
    }
  }
  const domain = searchDomain(text);
  if (domain !== '') visit(domainKey(domain));
}

/**
 * The distinct 1- to 3-character substrings of a search text and the key of its e-mail domain
 * (`forEachSearchGram`): the same set as the database's `search_grams()`.
 */
export function searchGrams(text: string): Set<string> {
  const grams = new Set<string>();
  forEachSearchGram(text, (gram) => grams.add(gram));
  return grams;
}

/**
 * The punctuation of names and mailboxes, and the Devanagari virama (migration 0021), and the pair
 * of ASCII letters `searchWords` turns each into: a `q` followed by a letter that follows it in no
 * word of the languages names come in.
 */
const WORD_BREAKS: Readonly<Record<string, string>> = {
  ' ': 'qx',
  '.': 'qj',
  '@': 'qw',
  '-': 'qz',
  _: 'qk',
  "'": 'qv',
  '+': 'qf',
  ',': 'qg',
  '\u094D': 'qh',
};

/**
 * The marks that are not Alphabetic in Unicode, so no word characters of pg_trgm in any locale,
 * but sit inside words (migration 0023), which `searchWords` turns into `qy`: every such mark of
 * the combining diacritics (a name typed decomposed, "jose\u0301") and of the scripts of South and
 * South-East Asia and beyond (U+0900–U+1CFF: the viramas of Bengali, Tamil, Telugu and the other
 * Indic scripts, the nuktas, Thai and Lao tone marks, the Khmer coeng, the Myanmar asat), and the
 * zero-width (non-)joiners. The Devanagari virama is turned by `WORD_BREAKS` (migration 0021).
 * The same class, written out, is the database's; a test compares the two on every character of
 * those blocks.
 */
const WORD_MARKS =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each mark is matched alone, apart from its letter.
  /[\u0300-\u0344\u0346-\u0362\u093c\u0951-\u0954\u09bc\u09cd\u09fe\u0a3c\u0a4d\u0abc\u0acd\u0afd-\u0aff\u0b3c\u0b4d\u0b55\u0bcd\u0c3c\u0c4d\u0cbc\u0ccd\u0d3b-\u0d3c\u0d4d\u0dca\u0e47-\u0e4c\u0e4e\u0eba\u0ec8-\u0ecc\u0ece\u0f18-\u0f19\u0f35\u0f37\u0f39\u0f3e-\u0f3f\u0f84\u0f86-\u0f87\u0fc6\u1037\u1039-\u103a\u135d-\u135f\u1714-\u1715\u1734\u17b4-\u17b5\u17c9-\u17d3\u17dd\u180b-\u180d\u180f\u1939-\u193b\u1a60\u1a75-\u1a7c\u1a7f\u1ab0-\u1abe\u1ac1-\u1acb\u1acf-\u1add\u1ae0-\u1aeb\u1b34\u1b44\u1b6b-\u1b73\u1baa-\u1bab\u1be6\u1bf2-\u1bf3\u1c37\u1cd0-\u1cd2\u1cd4-\u1ce8\u1ced\u1cf4\u1cf7-\u1cf9\u200c-\u200d]/gu;

/**
 * A head or a search as the trigram index reads it (the database's `search_words()`, migrations
 * 0015, 0021 and 0023): its punctuation, the Devanagari virama and the other `WORD_MARKS` turned
 * into letters, so that pg_trgm, which takes trigrams from runs of letters and digits only (ASCII's
 * in the C locale), takes them from every three characters in a row. It keeps a LIKE pattern's escapes: it turns `_`, but not
 * `\\` or `%`.
 */
export function searchWords(text: string): string {
  return Array.from(text.replace(WORD_MARKS, 'qy'), (character) => WORD_BREAKS[character] ?? character).join('');
}

/**
 * Whether the trigram index can narrow a search: pg_trgm takes its trigrams from runs of word
 * characters, and only a run of three or more gives one that is not padded (a word's start or end,
 * "  d" or " us", which a large share of every organisation holds). The index reads the search as
 * `searchWords` turns it (migrations 0015, 0021 and 0023): so any three characters in a row serve,
 * but for other symbols. Which characters are word characters is the database's: with
 * `unicodeWords`, those Unicode calls Alphabetic in every script (letters, and the vowel signs of
 * Indic scripts, which are marks) and digits, as glibc's classes and PostgreSQL's own follow it;
 * else (the C locale) ASCII's.
 */
export function trigramIndexNarrows(search: string, unicodeWords: boolean): boolean {
  return (unicodeWords ? /[\p{Alphabetic}\p{Nd}]{3}/u : /[a-z0-9]{3}/i).test(searchWords(search));
}

/**
 * The LIKE pattern, on the database's `search_mailbox_end(search_text)` (migration 0018), of the
 * heads that end with `end` (a search's part up to an `@` inside it): reversed by code points, as the
 * database's `reverse()` reverses characters, escaped, and open at its end.
 */
export function mailboxEndPattern(end: string): string {
  return `${escapeLike([...end].reverse().join(''))}%`;
}
