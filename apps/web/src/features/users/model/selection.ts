/**
 * The selection of users for bulk actions (SPEC.md §4), as pure functions over immutable values.
 * It is either some users of the current page, or every user matching the query ("all") minus
 * the ones unticked since. Third-party (external) users can never be selected.
 */
export type Selection =
  | { readonly mode: 'some'; readonly ids: ReadonlySet<string> }
  | { readonly mode: 'all'; readonly excluded: ReadonlySet<string> };

export interface SelectableRow {
  id: string;
  isExternal: boolean;
}

export const EMPTY_SELECTION: Selection = { mode: 'some', ids: new Set() };

export const isSelectable = (row: SelectableRow) => !row.isExternal;

export function isSelected(selection: Selection, row: SelectableRow): boolean {
  if (!isSelectable(row)) return false;
  return selection.mode === 'all' ? !selection.excluded.has(row.id) : selection.ids.has(row.id);
}

function setRows(selection: Selection, rows: readonly SelectableRow[], selected: boolean): Selection {
  const ids = rows.filter(isSelectable).map((row) => row.id);
  if (selection.mode === 'all') {
    const excluded = new Set(selection.excluded);
    for (const id of ids) selected ? excluded.delete(id) : excluded.add(id);
    return { mode: 'all', excluded };
  }
  const next = new Set(selection.ids);
  for (const id of ids) selected ? next.add(id) : next.delete(id);
  return { mode: 'some', ids: next };
}

export function toggleRow(selection: Selection, row: SelectableRow): Selection {
  if (!isSelectable(row)) return selection;
  return setRows(selection, [row], !isSelected(selection, row));
}

/** The header checkbox: selects every selectable row of the page, or clears them if all were selected. */
export function togglePage(selection: Selection, rows: readonly SelectableRow[]): Selection {
  const { checked } = pageCheckboxState(selection, rows);
  return setRows(selection, rows, !checked);
}

export function selectAll(): Selection {
  return { mode: 'all', excluded: new Set() };
}

export function pageCheckboxState(selection: Selection, rows: readonly SelectableRow[]) {
  const selectable = rows.filter(isSelectable);
  const selected = selectable.filter((row) => isSelected(selection, row)).length;
  return {
    checked: selectable.length > 0 && selected === selectable.length,
    indeterminate: selected > 0 && selected < selectable.length,
    disabled: selectable.length === 0,
  };
}

/**
 * How many users the query matches: exactly `count`, or at least `count` while a search with more
 * matches than the server counts (SEARCH_WINDOW) has not been counted exactly.
 */
export interface SelectionTotal {
  count: number;
  exact: boolean;
}

/** How many users the selection holds; undefined for every match of a total not counted yet. */
export function selectedCount(selection: Selection, total: SelectionTotal): number | undefined {
  if (selection.mode === 'some') return selection.ids.size;
  return total.exact ? Math.max(0, total.count - selection.excluded.size) : undefined;
}

export type SelectionSummary =
  | { kind: 'none' }
  | { kind: 'some'; count: number }
  | { kind: 'page'; count: number }
  | { kind: 'all'; count: number }
  | { kind: 'uncounted' };

/**
 * What the banner says: '{n} selected', '{n} selected (all on this page)' or 'All {total} users
 * selected'; 'uncounted' while every match of a capped total is selected and not counted yet.
 */
export function summarize(
  selection: Selection,
  rows: readonly SelectableRow[],
  total: SelectionTotal,
): SelectionSummary {
  const count = selectedCount(selection, total);
  if (count === undefined) return { kind: 'uncounted' };
  if (count === 0) return { kind: 'none' };
  if (total.exact && count >= total.count && (selection.mode === 'all' || selection.ids.size === total.count))
    return { kind: 'all', count: total.count };
  if (selection.mode === 'some' && pageCheckboxState(selection, rows).checked) return { kind: 'page', count };
  return { kind: 'some', count };
}

/**
 * The 'Select all' link shows while some, but not all, users are selected. A capped total is a
 * lower bound: a page's selection is always less than it.
 */
export function canSelectAll(selection: Selection, total: SelectionTotal): boolean {
  const count = selectedCount(selection, total);
  return count !== undefined && count > 0 && count < total.count;
}

export function selectedRowsOnPage<T extends SelectableRow>(selection: Selection, rows: readonly T[]): T[] {
  return rows.filter((row) => isSelected(selection, row));
}
