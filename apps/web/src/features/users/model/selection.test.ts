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
const TOTAL = 10;

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
    expect(summarize(all, page, TOTAL)).toEqual({ kind: 'all', count: TOTAL });
    expect(canSelectAll(all, TOTAL)).toBe(false);
    expect(pageCheckboxState(all, page).checked).toBe(true);
  });

  it('unticking a row after "select all" leaves everyone else selected', () => {
    const allButA = toggleRow(selectAll(), row('a'));
    expect(isSelected(allButA, row('a'))).toBe(false);
    expect(isSelected(allButA, row('b'))).toBe(true);
    expect(summarize(allButA, page, TOTAL)).toEqual({ kind: 'some', count: TOTAL - 1 });
    expect(canSelectAll(allButA, TOTAL)).toBe(true);
    expect(pageCheckboxState(allButA, page).indeterminate).toBe(true);
  });

  it('says "all" when a single page holds every user', () => {
    const rows = [row('a'), row('b')];
    expect(summarize(togglePage(EMPTY_SELECTION, rows), rows, 2)).toEqual({ kind: 'all', count: 2 });
  });
});
