import { SEARCH_MAX_LENGTH, type UserListQuery } from '@users-admin/contract';
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import {
  FILTER_KEYS,
  nextSort,
  parseUsersSearchParams,
  type UsersFilters,
  writeUsersSearchParams,
} from '../model/users-url-query.ts';

/** Drops `key` when `value` is undefined: with exactOptionalPropertyTypes a key is absent, never undefined. */
function assign<K extends keyof UserListQuery>(query: UserListQuery, key: K, value: UserListQuery[K] | undefined) {
  const next = { ...query };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/**
 * The users list query lives in the URL (SPEC.md §2): this hook is the one place that reads and writes
 * it. Every change is a history entry, so Back and Forward step through searches, filters and pages;
 * a new search, filter, sort or page size goes back to page 1.
 */
export function useUsersUrlState(
  options: {
    /** Told the query a change leads to, before the address changes (to start its list call at once). */
    onNavigate?: (next: UserListQuery) => void;
  } = {},
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useMemo(() => parseUsersSearchParams(searchParams), [searchParams]);
  // The changes below are the same functions for the life of the page, so that the parts they are
  // given to (memoised: the footer, the table's head) do not re-render for each change.
  // They read the address and React Router's setter (a new function at each address) as of the last
  // render committed: what the person sees when they act.
  const latest = useRef({ searchParams, setSearchParams, onNavigate: options.onNavigate });
  useLayoutEffect(() => {
    latest.current = { searchParams, setSearchParams, onNavigate: options.onNavigate };
  });

  const update = useCallback(
    (change: (current: UserListQuery) => UserListQuery, options: { replace?: boolean } = {}) => {
      const { searchParams: params, setSearchParams: navigate, onNavigate } = latest.current;
      const next = writeUsersSearchParams(change(parseUsersSearchParams(params)), params);
      // No history entry for a change that changes nothing (e.g. choosing the current filter again).
      if (next.toString() !== params.toString()) {
        onNavigate?.(parseUsersSearchParams(next));
        navigate(next, { replace: options.replace ?? false });
      }
    },
    [],
  );

  return {
    query,
    setPage: useCallback((pageNumber: number) => update((q) => ({ ...q, pageNumber })), [update]),
    /** Moves a page number past the end back to the last page, in place (no history entry). */
    clampPage: useCallback(
      (lastPage: number) => update((q) => ({ ...q, pageNumber: Math.min(q.pageNumber, lastPage) }), { replace: true }),
      [update],
    ),
    setPageSize: useCallback((pageSize: number) => update((q) => ({ ...q, pageSize, pageNumber: 1 })), [update]),
    setSearch: useCallback(
      (search: string) => {
        const trimmed = search.trim().slice(0, SEARCH_MAX_LENGTH);
        update((q) =>
          trimmed === (q.search ?? '') ? q : { ...assign(q, 'search', trimmed || undefined), pageNumber: 1 },
        );
      },
      [update],
    ),
    /** Sets every filter of the popover at once: one left out is cleared. */
    setFilters: useCallback(
      (filters: UsersFilters) =>
        update((q) => ({
          ...FILTER_KEYS.reduce((next, key) => assign(next, key, filters[key]), q),
          pageNumber: 1,
        })),
      [update],
    ),
    toggleSort: useCallback(() => update((q) => ({ ...q, sort: nextSort(q.sort), pageNumber: 1 })), [update]),
  };
}

export type UsersUrlState = ReturnType<typeof useUsersUrlState>;
