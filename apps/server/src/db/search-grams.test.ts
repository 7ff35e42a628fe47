import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, GramTally } from './search-grams.ts';

/** PostgreSQL's "C" collation: the bytes of UTF-8. */
const byUtf8 = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe('the order of names as PostgreSQL sorts them in the C collation', () => {
  it('compares strings by code point, as their UTF-8 bytes compare, surrogate pairs included', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFF01').toBe(true);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('né', 'né')).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(byUtf8(a, b));
      }),
      { numRuns: 2000, seed: 20261125 },
    );
  });

  it('tallies the first and last name that holds each gram, without the domain key', () => {
    const tally = new GramTally();
    tally.add('zoë\u001fz@x.example', 'active', false, 'zoe');
    tally.add('anna\u001fa@x.example', 'pending', true, 'anna');
    tally.add('山田\u001fy@x.example', 'active', false, '山田');
    const spans = new Map([...tally.spans()].map((span) => [span.gram, [span.firstSort, span.lastSort]]));
    expect(spans.get('a')).toEqual(['anna', '山田']);
    expect(spans.get('.ex')).toEqual(['anna', '山田']);
    expect(spans.get('nn')).toEqual(['anna', 'anna']);
    expect(spans.get('山')).toEqual(['山田', '山田']);
    expect([...spans.keys()].some((gram) => gram.startsWith('\u001f'))).toBe(false);
  });
});
