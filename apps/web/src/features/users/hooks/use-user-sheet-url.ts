import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/** The address bar's parameter of the open side sheet: the user's id. */
export const USER_SHEET_KEY = 'user';

/** Marks a history entry that the page pushed to open the sheet: closing it goes back to the entry before. */
interface SheetHistoryState {
  userSheetOpened?: true;
}

/** The page's parameters with the sheet's set to `userId`, or left out. */
export function withUserSheet(params: URLSearchParams, userId: string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(USER_SHEET_KEY);
  if (userId) next.set(USER_SHEET_KEY, userId);
  return next;
}

/**
 * The side sheet lives in the URL (`user=<id>`), beside the list's query, so that it is a link:
 * opening it is a history entry (Back closes it); the list's query, and so its page and selection,
 * stay as they are.
 */
export function useUserSheetUrl() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const userId = searchParams.get(USER_SHEET_KEY) || undefined;
  // The list's address without the sheet: the same string while the sheet opens and closes.
  const listSearch = useMemo(() => withUserSheet(searchParams, undefined).toString(), [searchParams]);
  const openedHere = (location.state as SheetHistoryState | null)?.userSheetOpened === true;

  // The same function for the life of the page, so that the (memoised) rows it is given to are not
  // drawn again for each change of the address; it reads the address of the last render committed.
  const latest = useRef({ listSearch, navigate });
  useLayoutEffect(() => {
    latest.current = { listSearch, navigate };
  });
  const open = useCallback((id: string) => {
    const search = withUserSheet(new URLSearchParams(latest.current.listSearch), id).toString();
    latest.current.navigate({ search: `?${search}` }, { state: { userSheetOpened: true } satisfies SheetHistoryState });
  }, []);
  const close = useCallback(() => {
    // Back to the entry the sheet was opened from, so that Forward opens it again; a link that
    // opened it has no such entry, and the address just loses the sheet.
    if (openedHere) navigate(-1);
    else navigate({ search: listSearch ? `?${listSearch}` : '' }, { replace: true });
  }, [navigate, openedHere, listSearch]);

  return { userId, open, close };
}

/**
 * The address of a user's sheet, for a name's link: a plain click opens the sheet over the list as
 * it is (`open`); opened in a new tab, it shows the sheet over the first page.
 */
export function userSheetHref(id: string): string {
  return `?${withUserSheet(new URLSearchParams(), id).toString()}`;
}
