import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GramTally, keyPrefix, nameKey } from './search-grams.ts';

/** PostgreSQL's "C" collation: the bytes of UTF-8. */
const byUtf8 = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** Names as `sort_name` holds them: any code points but U+0000, which PostgreSQL's text never holds. */
const name = fc.string({ unit: 'grapheme-composite', maxLength: 6 }).filter((text) => !text.includes('\u0000'));

describe('the spans a bulk load tallies (migration 0016)', () => {
  it('keys names by their first two code points in the order of the C collation', () => {
    expect(nameKey('\u{1F600}')).toBeGreaterThan(nameKey('\uFF01'));
    expect(nameKey('ab')).toBe(nameKey('abc'));
    expect(nameKey('a')).toBeLessThan(nameKey('ab'));
    fc.assert(
      fc.property(name, name, (a, b) => {
        if (byUtf8(a, b) < 0) expect(nameKey(a)).toBeLessThanOrEqual(nameKey(b));
      }),
      { numRuns: 2000, seed: 20261125 },
    );
  });

  it('holds every name of a gram between its first and last, as the C collation orders them', () => {
    expect(keyPrefix(nameKey('山田 さくら'))).toBe('山田');
    expect(keyPrefix(nameKey('山田 さくら'), true)).toBe('山由');
    expect(keyPrefix(nameKey(''))).toBe('');
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 30 }), (names) => {
        const tally = new GramTally();
        for (const sortName of names) tally.add('x', 'active', false, sortName);
        const [span] = [...tally.spans()];
        const sorted = [...names].sort(byUtf8);
        expect(byUtf8(span?.firstSort ?? '', sorted[0] ?? '')).toBeLessThanOrEqual(0);
        expect(byUtf8(span?.lastSort ?? '', sorted.at(-1) ?? '')).toBeGreaterThanOrEqual(0);
        expect((sorted[0] ?? '').startsWith(span?.firstSort ?? '')).toBe(true);
      }),
      { numRuns: 1000, seed: 20261125 },
    );
  });

  it('tallies the spans of the grams, without the domain key', () => {
    const tally = new GramTally();
    tally.add('zoë\u001fz@x.example', 'active', false, 'zoe');
    tally.add('anna\u001fa@x.example', 'pending', true, 'anna');
    tally.add('山田\u001fy@x.example', 'active', false, '山田');
    const spans = new Map([...tally.spans()].map((span) => [span.gram, [span.firstSort, span.lastSort]]));
    expect(spans.get('a')).toEqual(['an', '山由']);
    expect(spans.get('nn')).toEqual(['an', 'ao']);
    expect(spans.get('山')).toEqual(['山田', '山由']);
    expect([...spans.keys()].some((gram) => gram.startsWith('\u001f'))).toBe(false);
  });
});
