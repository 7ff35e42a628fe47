import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_SEPARATOR, searchText } from '../lib/user-text.ts';
import { HeavySearchTally } from './heavy-searches.ts';
import { GramTally } from './search-grams.ts';

interface User {
  name: string;
  email: string;
  status: 'active' | 'inactive' | 'pending' | 'disabled';
  admin: boolean;
}

/** The tallies a load makes of its users, and the grams with how many users hold each. */
function tallied(users: readonly User[]) {
  const grams = new GramTally();
  const heavy = new HeavySearchTally();
  for (const user of users) {
    const text = searchText(user.name, user.email);
    grams.add(text, user.status, user.admin);
    heavy.add(text, user.status, user.admin);
  }
  const totals = new Map<string, number>();
  for (const row of grams.rows()) totals.set(row.gram, (totals.get(row.gram) ?? 0) + row.n);
  return { heavy, totals };
}

/** Every substring of four or more characters of some head, by brute force. */
function substringsOfHeads(users: readonly User[]): Set<string> {
  const found = new Set<string>();
  for (const user of users) {
    const text = searchText(user.name, user.email);
    const head = [...text.slice(0, text.lastIndexOf('@') + 1 || text.length)];
    for (let start = 0; start < head.length; start++) {
      for (let end = start + 4; end <= head.length; end++) found.add(head.slice(start, end).join(''));
    }
  }
  return found;
}

const user = fc.record({
  // Few letters, so that substrings repeat across users.
  name: fc.stringMatching(/^[ab .ä]{0,8}$/),
  email: fc
    .tuple(fc.stringMatching(/^[ab.]{0,6}$/), fc.constantFrom('ab.example', 'b.example'))
    .map(([mailbox, domain]) => `${mailbox}@${domain}`),
  status: fc.constantFrom('active', 'inactive', 'pending', 'disabled'),
  admin: fc.boolean(),
}) as fc.Arbitrary<User>;

describe('the heavy searches a load keeps counted', () => {
  it('finds exactly the substrings of four or more characters that enough names or mailboxes hold, with their counts', () => {
    fc.assert(
      fc.property(fc.array(user, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (users, threshold) => {
        const { heavy, totals } = tallied(users);
        const found = heavy.find(totals, threshold, 1000);
        const expected = [...substringsOfHeads(users)].filter(
          (search) =>
            !search.includes('@') &&
            !search.includes(SEARCH_SEPARATOR) &&
            users.filter((u) => {
              const text = searchText(u.name, u.email);
              return text.slice(0, text.lastIndexOf('@') + 1).includes(search);
            }).length >= threshold,
        );
        expect(found.map((f) => f.search).sort()).toEqual(expected.sort());
        for (const { search, counts } of found) {
          for (const { status, isSystemAdmin, n } of counts) {
            const holders = users.filter(
              (u) => u.status === status && u.admin === isSystemAdmin && searchText(u.name, u.email).includes(search),
            );
            expect(n).toBe(holders.length);
          }
          const anywhere = users.filter((u) => searchText(u.name, u.email).includes(search)).length;
          expect(counts.reduce((sum, count) => sum + count.n, 0)).toBe(anywhere);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the most held first, at most as many as asked', () => {
    const users: User[] = [
      ...Array.from(
        { length: 5 },
        () => ({ name: 'anna smith', email: 'x@a.example', status: 'active', admin: false }) as const,
      ),
      ...Array.from(
        { length: 3 },
        () => ({ name: 'bob jones', email: 'y@a.example', status: 'pending', admin: true }) as const,
      ),
    ];
    const { heavy, totals } = tallied(users);
    const found = heavy.find(totals, 3, 2);
    expect(found).toHaveLength(2);
    expect(found.every((search) => search.inHeads === 5)).toBe(true);
    expect(heavy.find(totals, 3, 1000).some((search) => search.search === 'bob jones')).toBe(true);
  });

  it('counts a search held only in the e-mail domain among the users who hold it, not as heavy in names or mailboxes', () => {
    const users: User[] = Array.from({ length: 4 }, (_, i) => ({
      name: `p${i}`,
      email: `m${i}@example.org`,
      status: 'active',
      admin: false,
    }));
    const { heavy, totals } = tallied(users);
    expect(heavy.find(totals, 2, 1000)).toEqual([]);
  });
});
