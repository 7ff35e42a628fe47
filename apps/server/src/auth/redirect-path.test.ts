import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_REDIRECTS } from '../../test/support/hostile-values.ts';
import { safeRedirectPath } from './redirect-path.ts';

const ORIGIN = 'https://users.example';

/** Where a browser goes with `Location: <path>` on a page of ORIGIN. */
const destination = (path: string) => new URL(path.replace(/[\t\n\r]/g, ''), `${ORIGIN}/some/page`);

describe('safeRedirectPath', () => {
  it.each(HOSTILE_REDIRECTS)('never leaves the origin for %j', (path) => {
    const result = safeRedirectPath(path, ORIGIN);
    expect(destination(result).origin).toBe(ORIGIN);
    expect(result).toMatch(/^\/(?![/\\])/);
  });

  it('keeps a same-origin path with its query and fragment', () => {
    expect(safeRedirectPath('/?page=2&sort=name', ORIGIN)).toBe('/?page=2&sort=name');
    expect(safeRedirectPath('/?search=ann%20lee#top', ORIGIN)).toBe('/?search=ann%20lee#top');
    expect(safeRedirectPath('/oidc/callback', ORIGIN)).toBe('/oidc/callback');
  });

  it('answers / for anything that is not a string', () => {
    for (const value of [undefined, null, 1, ['/a'], { path: '/' }]) expect(safeRedirectPath(value, ORIGIN)).toBe('/');
  });

  it('gives, for any string at all, a path that a browser resolves on the same origin', () => {
    const piece = fc.constantFrom(
      '/',
      '\\',
      '.',
      '..',
      '%2F',
      '%2f',
      '%5C',
      '%2e',
      '%09',
      '\t',
      '\n',
      'evil.example',
      ':',
      '@',
      '?',
      '#',
      '%',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
        ),
        (path) => {
          const result = safeRedirectPath(path, ORIGIN);
          expect(result).toMatch(/^\/(?![/\\])/);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must never come back.
          expect(result).not.toMatch(/[\u0000-\u001f\\]/);
          expect(destination(result).origin).toBe(ORIGIN);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
