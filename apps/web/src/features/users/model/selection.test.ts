import { describe, expect, it } from 'vitest';
import {
  canSelectAll,
  EMPTY_SELECTION,
  isSelected,
  pageCheckboxState,
  selectAll,
  selectedCount,
  selectedRowsOnPage,
  summarize,
  togglePage,
  toggleRow,
} from './selection.ts';

const row = (id: string, isExternal = false) => ({ id, isExternal });
const page = [row('a'), row('b'), row('x', true), row('c')];
const TOTAL = { count: 10, exact: true };

describe('selection model (SPEC.md §4)', () => {
  it('toggles one row on and off', () => {
    const one = toggleRow(EMPTY_SELECTION, row('a'));
    expect(isSelected(one, row('a'))).toBe(true);
    expect(summarize(one, page, TOTAL)).toEqual({ kind: 'some', count: 1 });
    expect(isSelected(toggleRow(one, row('a')), row('a'))).toBe(false);
  });

  it('never selects a third-party user', () => {
    expect(toggleRow(EMPTY_SELECTION, row('x', true))).toBe(EMPTY_SELECTION);
    const all = togglePage(EMPTY_SELECTION, page);
    expect(isSelected(all, row('x', true))).toBe(false);
    expect(isSelected(selectAll(), row('x', true))).toBe(false);
  });

  it('header checkbox: selects every selectable row, is indeterminate when partial, then clears', () => {
    expect(pageCheckboxState(EMPTY_SELECTION, page)).toEqual({ checked: false, indeterminate: false, disabled: false });
    const partial = toggleRow(EMPTY_SELECTION, row('b'));
    expect(pageCheckboxState(partial, page)).toMatchObject({ checked: false, indeterminate: true });

    const whole = togglePage(partial, page);
    expect(selectedRowsOnPage(whole, page).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(pageCheckboxState(whole, page)).toMatchObject({ checked: true, indeterminate: false });
    expect(summarize(whole, page, TOTAL)).toEqual({ kind: 'page', count: 3 });

    expect(selectedCount(togglePage(whole, page), TOTAL)).toBe(0);
  });

  it('header checkbox is disabled on a page of third-party users only', () => {
    expect(pageCheckboxState(EMPTY_SELECTION, [row('x', true)])).toMatchObject({ checked: false, disabled: true });
  });

  it('offers "select all" while the total exceeds the selection, then counts the whole query', () => {
    const one = toggleRow(EMPTY_SELECTION, row('a'));
    expect(canSelectAll(EMPTY_SELECTION, TOTAL)).toBe(false);
    expect(canSelectAll(one, TOTAL)).toBe(true);

    const all = selectAll();
    expect(summarize(all, page, TOTAL)).toEqual({ kind: 'all', count: 10 });
    expect(canSelectAll(all, TOTAL)).toBe(false);
    expect(pageCheckboxState(all, page).checked).toBe(true);
  });

  it('unticking a row after "select all" leaves everyone else selected', () => {
    const allButA = toggleRow(selectAll(), row('a'));
    expect(isSelected(allButA, row('a'))).toBe(false);
    expect(isSelected(allButA, row('b'))).toBe(true);
    expect(summarize(allButA, page, TOTAL)).toEqual({ kind: 'some', count: 9 });
    expect(canSelectAll(allButA, TOTAL)).toBe(true);
    expect(pageCheckboxState(allButA, page).indeterminate).toBe(true);
  });

  it('says "all" when a single page holds every user', () => {
    const rows = [row('a'), row('b')];
    expect(summarize(togglePage(EMPTY_SELECTION, rows), rows, { count: 2, exact: true })).toEqual({
      kind: 'all',
      count: 2,
    });
  });

  describe('with a capped total (a search past the server’s window: at least 1,000)', () => {
    const CAPPED = { count: 1_000, exact: false };
    const EXACT = { count: 512_345, exact: true };

    it('counts and offers "select all" for a page’s selection as with an exact total', () => {
      const one = toggleRow(EMPTY_SELECTION, row('a'));
      expect(selectedCount(one, CAPPED)).toBe(1);
      expect(summarize(one, page, CAPPED)).toEqual({ kind: 'some', count: 1 });
      expect(canSelectAll(one, CAPPED)).toBe(true);
      expect(summarize(togglePage(EMPTY_SELECTION, page), page, CAPPED)).toEqual({ kind: 'page', count: 3 });
    });

    it('never takes the cap for the number of users selected', () => {
      const all = selectAll();
      expect(selectedCount(all, CAPPED)).toBeUndefined();
      expect(summarize(all, page, CAPPED)).toEqual({ kind: 'uncounted' });
      expect(canSelectAll(all, CAPPED)).toBe(false);
      const allButA = toggleRow(all, row('a'));
      expect(selectedCount(allButA, CAPPED)).toBeUndefined();
      expect(summarize(allButA, page, CAPPED)).toEqual({ kind: 'uncounted' });
    });

    it('uses the exact count once known', () => {
      expect(selectedCount(selectAll(), EXACT)).toBe(512_345);
      expect(summarize(selectAll(), page, EXACT)).toEqual({ kind: 'all', count: 512_345 });
      const allButA = toggleRow(selectAll(), row('a'));
      expect(summarize(allButA, page, EXACT)).toEqual({ kind: 'some', count: 512_344 });
      expect(canSelectAll(allButA, EXACT)).toBe(true);
    });
  });
});
