import type { UserListQuery } from '@users-admin/contract';
import { USER_STATUSES } from '@users-admin/contract';

/**
 * List requests such as administrators make, drawn from an organisation's own users so that their
 * searches find something: a piece of 1–8 characters of a name or e-mail address (its letters,
 * punctuation and spaces as they come), sometimes with its last character changed, with any
 * filters, order, page size and page, shallow or deep. The same `seed` gives the same requests, so
 * that runs of the benchmark compare.
 */
export function randomQueries(texts: readonly string[], count: number, seed: number): UserListQuery[] {
  let state = seed >>> 0 || 1;
  /** xorshift32: small, fast and good enough to pick from short lists. */
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  const queries: UserListQuery[] = [];
  while (queries.length < count && texts.length > 0) {
    const characters = [...pick(texts)];
    const length = 1 + Math.floor(next() * 8);
    const start = Math.floor(next() * Math.max(1, characters.length - length + 1));
    let search = characters
      .slice(start, start + length)
      .join('')
      .trim();
    // By characters, not UTF-16 units: half a surrogate pair cannot be put in an address.
    if ([...search].length > 1 && next() < 0.2)
      search = [...search].slice(0, -1).join('') + pick(['.', ' ', 'q', '-', '@']);
    if (!search) continue;
    const query: UserListQuery = {
      search,
      pageSize: pick([25, 25, 50, 100]),
      pageNumber: pick([1, 1, 1, 2, 3, 10, 40, 400, 4000]),
    };
    if (next() < 0.3) query.status = pick(USER_STATUSES);
    if (next() < 0.2) query.isSystemAdmin = next() < 0.5;
    if (next() < 0.5) query.sort = pick(['name', '-name'] as const);
    queries.push(query);
  }
  return queries;
}
