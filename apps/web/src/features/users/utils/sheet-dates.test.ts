import { describe, expect, it } from 'vitest';
import { exactDateTime, relativeTime, shortDate } from './sheet-dates.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('the side sheet dates', () => {
  it('say how long ago in the largest whole unit, in the page language', () => {
    expect(relativeTime(ago(3 * 24 * 3600), 'en', NOW)).toBe('3 days ago');
    expect(relativeTime(ago(24 * 3600), 'en', NOW)).toBe('yesterday');
    expect(relativeTime(ago(5 * 60), 'en', NOW)).toBe('5 minutes ago');
    expect(relativeTime(ago(0), 'en', NOW)).toBe('now');
    expect(relativeTime(ago(70 * 24 * 3600), 'en', NOW)).toBe('2 months ago');
    expect(relativeTime(ago(3 * 24 * 3600), 'de', NOW)).toBe('vor 3 Tagen');
    expect(relativeTime(ago(3 * 24 * 3600), 'ja', NOW)).toBe('3 日前');
  });

  it('write the exact moment and a date in the page language', () => {
    expect(exactDateTime('2026-11-26T12:00:00Z', 'en')).toMatch(/November 26, 2026/);
    expect(shortDate('2025-03-04T08:00:00Z', 'en')).toBe('Mar 4, 2025');
    expect(shortDate('2025-03-04T08:00:00Z', 'fr')).toBe('4 mars 2025');
  });
});
