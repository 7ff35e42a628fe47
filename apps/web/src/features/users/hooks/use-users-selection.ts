import { useQuery } from '@tanstack/react-query';
import type { UserListQuery } from '@users-admin/contract';
import { useCallback, useState } from 'react';
import { getUsersTotalQueryOptions, type UsersList } from '../api/get-users.ts';
import { EMPTY_SELECTION, type Selection, type SelectionTotal } from '../model/selection.ts';
import { writeUsersSearchParams } from '../model/users-url-query.ts';

/** Selection belongs to one query: any change of the URL query starts from nothing (SPEC.md §4). */
function useSelectionForQuery(queryKey: string) {
  const [state, setState] = useState({ queryKey, selection: EMPTY_SELECTION });
  if (state.queryKey !== queryKey) setState({ queryKey, selection: EMPTY_SELECTION });
  const selection = state.queryKey === queryKey ? state.selection : EMPTY_SELECTION;
  // Stable across queries, so a change of query does not re-render every (memoised) row at once.
  // A change made under the previous query stays with that query, which the next render clears.
  const update = useCallback(
    (change: (current: Selection) => Selection) =>
      setState((current) => ({ queryKey: current.queryKey, selection: change(current.selection) })),
    [],
  );
  return [selection, update] as const;
}

/**
 * The selection of the list on screen, and the total it counts against. A capped total (a search
 * past the server's window) is only a lower bound: selecting every match asks for the exact count,
 * which then stands in for it.
 */
export function useUsersSelection(orgId: string | undefined, query: UserListQuery, list: UsersList | undefined) {
  const [selection, update] = useSelectionForQuery(writeUsersSearchParams(query).toString());
  const capped = list?.totalIsLowerBound ?? false;
  const counting = capped && selection.mode === 'all';
  const exact = useQuery({ ...getUsersTotalQueryOptions(orgId ?? '', query), enabled: Boolean(orgId) && counting });
  const total: SelectionTotal =
    capped && exact.data !== undefined
      ? { count: exact.data, exact: true }
      : { count: list?.total ?? 0, exact: !capped };
  return {
    selection,
    updateSelection: update,
    selectionTotal: total,
    /** The exact count was asked for and could not be had. */
    countFailed: counting && !total.exact && exact.isError,
    recount: exact.refetch,
  };
}
