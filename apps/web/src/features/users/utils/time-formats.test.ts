// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createTimeFormats } from './time-formats.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the times of the Last sign-in and Created columns', () => {
  const en = createTimeFormats('en');

  it.each([
    [0, 'now'],
    [5_000, '5 seconds ago'],
    [90_000, '1 minute ago'],
    [3 * HOUR, '3 hours ago'],
    [DAY, 'yesterday'],
    [3 * DAY, '3 days ago'],
    [15 * DAY, '2 weeks ago'],
    [40 * DAY, 'last month'],
    [200 * DAY, '6 months ago'],
    [800 * DAY, '2 years ago'],
  ])('says %i ms ago as "%s"', (elapsed, text) => {
    expect(en.relative(ago(elapsed), NOW)).toBe(text);
  });

  it('takes a time a little ahead of the clock as now', () => {
    expect(en.relative(new Date(NOW + 2_000).toISOString(), NOW)).toBe('now');
  });

  it('speaks the page language', () => {
    expect(createTimeFormats('de').relative(ago(3 * DAY), NOW)).toBe('vor 3 Tagen');
    expect(createTimeFormats('ja').relative(ago(3 * DAY), NOW)).toBe('3 日前');
    expect(createTimeFormats('fr').relative(ago(DAY), NOW)).toBe('hier');
  });

  it('writes the exact time in UTC, saying so, and the date alone', () => {
    const iso = '2026-11-23T22:05:09.000Z';
    expect(en.dateTime(iso)).toBe('November 23, 2026 at 10:05 PM UTC');
    expect(createTimeFormats('de').dateTime(iso)).toBe('23. November 2026 um 22:05 UTC');
    expect(en.date(iso)).toBe('Nov 23, 2026');
    expect(createTimeFormats('de').date(iso)).toBe('23.11.2026');
  });
});
