import { describe, expect, it } from 'vitest';
import { searchGrams } from '../lib/user-text.ts';
import { chooseGrams } from './search-gram-stats.ts';

const shares = new Map([
  ['be', 1],
  ['en', 0.64],
  ['an', 0.14],
  ['ma', 0.08],
  ['ar', 0.06],
  ['sm', 0.014],
]);

describe('which pairs of a search the index is asked for', () => {
  it('takes the three rarest, unlisted pairs first, with the share of users holding them all', () => {
    const chosen = chooseGrams(searchGrams('smart'), shares);
    expect(chosen.grams).toEqual(['rt', 'sm', 'ar']);
    expect(chosen.share).toBe(0);
    expect(chooseGrams(['ma', 'ar'], shares)).toEqual({ grams: ['ar', 'ma'], share: 0.06 * 0.08, rarest: 0.06 });
  });

  it('leaves out pairs most users hold: they narrow nothing, LIKE tests them', () => {
    expect(chooseGrams(['be', 'en', 'an'], shares)).toEqual({ grams: ['an'], share: 0.14, rarest: 0.14 });
    expect(chooseGrams(['be', 'en'], shares)).toEqual({ grams: [], share: 1, rarest: 1 });
  });
});
