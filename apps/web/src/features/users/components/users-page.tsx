import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { HttpError } from '../../../lib/http/http-client.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import { useUserColumns } from '../api/get-user-columns.ts';
import { getUsersQueryOptions, type User, useUsers } from '../api/get-users.ts';
import { isPageBeyondWindow, lastPageInWindow } from '../api/search-window.ts';
import { useRowActions } from '../hooks/use-row-actions.ts';
import { useUserSheetUrl } from '../hooks/use-user-sheet-url.ts';
import { useUsersSelection } from '../hooks/use-users-selection.ts';
import { useUsersUrlState } from '../hooks/use-users-url-state.ts';
import {
  canSelectAll,
  EMPTY_SELECTION,
  selectAll,
  selectedCount,
  summarize,
  togglePage,
  toggleRow,
} from '../model/selection.ts';
import { activeFilterCount } from '../model/users-url-query.ts';
import { LoadError, loadMessages, NoResults, NotFound, Unauthorized, UsersPagination } from './first-render-parts.ts';
import { PageHeader } from './page-header.tsx';
import { LoadingOverlay } from './users-states.tsx';
import { UsersTable } from './users-table.tsx';
import { UsersToolbar } from './users-toolbar.tsx';

const UserSheet = lazyPart(() => retryingImport(() => import('./user-sheet.tsx'))().then((module) => module.UserSheet));

// A row's invitation link: the call and its message load on first use.
const InvitationStatus = lazyPart(() =>
  retryingImport(() => import('../actions/invitation-status.tsx'))().then((module) => module.InvitationStatus),
);

// No first render has a selection (a new address clears it): the banner loads apart too.
const SelectionBanner = lazyPart(() =>
  retryingImport(() => import('./selection-banner.tsx'))().then((module) => module.SelectionBanner),
);

export interface UsersPageProps {
  /** The session's organisation; undefined while the session is being looked up, '' when it has none. */
  orgId: string | undefined;
  /** The session lookup failed for a reason other than a missing sign-in. */
  sessionFailed?: boolean;
  /** Looks the session up again, after `sessionFailed`. */
  onRetrySession?: () => void;
  homeUrl: string;
  launchpadUrl: string;
  /** Where Contact support goes (SUPPORT_URL). */
  supportUrl?: string | undefined;
}

/**
 * The Users page. Long because it is where the address, the list's queries and the
 * selection meet: it derives the page's state once and hands each part (header, toolbar, table,
 * footer, sheet, messages) only what it shows; the parts are components of their own.
 */
export function UsersPage({
  orgId,
  sessionFailed = false,
  onRetrySession,
  homeUrl,
  launchpadUrl,
  supportUrl,
}: UsersPageProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { query, setPage, clampPage, setPageSize, setSearch, setFilters, toggleSort } = useUsersUrlState({
    // A change's list call starts with the change, not after the page has re-rendered for it;
    // the page then finds it under way.
    onNavigate: (next) => {
      if (orgId) void queryClient.prefetchQuery(getUsersQueryOptions(orgId, next));
    },
  });
  const sheet = useUserSheetUrl();
  // Once opened, the sheet stays mounted, to slide away when it closes.
  const [sheetMounted, setSheetMounted] = useState(false);
  if (sheet.userId !== undefined && !sheetMounted) setSheetMounted(true);
  const users = useUsers(orgId || undefined, query);
  const columns = useUserColumns(orgId || undefined);
  const data = users.data;
  const { selection, updateSelection, selectionTotal, countFailed, recount } = useUsersSelection(
    orgId || undefined,
    query,
    data,
  );

  const rows = data?.users ?? [];
  const hasSelection = selectedCount(selection, selectionTotal) !== 0;
  const total = data?.total ?? 0;
  const totalIsLowerBound = data?.totalIsLowerBound ?? false;
  const refused = users.error instanceof HttpError && (users.error.status === 401 || users.error.status === 403);
  const beyondWindow = isPageBeyondWindow(users.error);
  const unauthorized = orgId === '' || refused;
  const failed = sessionFailed || (users.isError && !refused && !beyondWindow);
  // The rows wait for the chosen columns too: drawn once, never first with SPEC.md's and then with others.
  const loading =
    !failed && !unauthorized && (users.isPending || users.isPlaceholderData || beyondWindow || columns === undefined);
  const filtered = query.search !== undefined || activeFilterCount(query) > 0;

  // A page number past the end (an old link, fewer users now): show the last page instead.
  const lastPage = Math.max(1, Math.ceil(total / query.pageSize));
  const settled = data !== undefined && !users.isPlaceholderData;
  useEffect(() => {
    if (settled && query.pageNumber > lastPage) clampPage(lastPage);
  }, [settled, query.pageNumber, lastPage, clampPage]);
  // A page beyond a large search's window (the server refuses it) goes to the window's last page alike.
  useEffect(() => {
    if (beyondWindow) clampPage(lastPageInWindow(query.pageSize));
  }, [beyondWindow, query.pageSize, clampPage]);

  // The alerts' and the selection banner's code comes once the page is up, so that they never wait
  // for it, nor go missing when the network an alert would report on has gone.
  useEffect(() => {
    void loadMessages().catch(() => undefined);
    void SelectionBanner.preload();
  }, []);

  // A new page starts at its first row: bring the top of the table back into view if it scrolled away.
  const tableArea = useRef<HTMLDivElement>(null);
  const goToPage = useCallback(
    (page: number) => {
      setPage(page);
      const top = tableArea.current?.getBoundingClientRect().top;
      if (top !== undefined && top < 0) tableArea.current?.scrollIntoView({ block: 'start' });
    },
    [setPage],
  );

  const onToggleRow = useCallback((user: User) => updateSelection((s) => toggleRow(s, user)), [updateSelection]);
  const onTogglePage = useCallback(() => updateSelection((s) => togglePage(s, rows)), [updateSelection, rows]);
  const onActionDone = useCallback(() => updateSelection(() => EMPTY_SELECTION), [updateSelection]);
  const { invitation, onRowAction } = useRowActions(supportUrl);

  const from = total === 0 ? 0 : (query.pageNumber - 1) * query.pageSize + 1;
  const to = Math.min(total, query.pageNumber * query.pageSize);
  const announcement =
    loading || failed || unauthorized || !data
      ? ''
      : total === 0
        ? t('users.states.noResults')
        : t(totalIsLowerBound ? 'users.states.announcementMoreThan' : 'users.states.announcement', {
            from,
            to,
            count: total,
          });

  const summary = summarize(selection, rows, selectionTotal);
  let body: ReactNode;
  if (failed) {
    body = (
      <Suspense fallback={null}>
        <LoadError onRetry={() => (sessionFailed ? onRetrySession?.() : void users.refetch())} />
      </Suspense>
    );
  } else if (settled && total === 0) {
    body = filtered ? (
      <Suspense fallback={null}>
        <NotFound search={query.search} />
      </Suspense>
    ) : (
      <Suspense fallback={null}>
        <NoResults />
      </Suspense>
    );
  } else if (columns === undefined) {
    // No table until its columns are known: never one set of columns, then another.
    body = null;
  } else {
    body = (
      <>
        {summary.kind !== 'none' && (
          <Suspense fallback={null}>
            <SelectionBanner
              summary={summary}
              total={selectionTotal}
              canSelectAll={canSelectAll(selection, selectionTotal)}
              countFailed={countFailed}
              onSelectAll={() => updateSelection(() => selectAll())}
              onClear={() => updateSelection(() => EMPTY_SELECTION)}
              onRecount={recount}
            />
          </Suspense>
        )}
        <UsersTable
          inert={loading}
          users={rows}
          columns={columns}
          selection={selection}
          sort={query.sort}
          onToggleRow={onToggleRow}
          onTogglePage={onTogglePage}
          onToggleSort={toggleSort}
          onOpenUser={sheet.open}
          onRowAction={onRowAction}
        />
        {total > 0 && query.pageNumber <= lastPage && (
          <Suspense fallback={<Box sx={{ height: 53, borderTop: 1, borderColor: 'divider' }} />}>
            <UsersPagination
              total={total}
              totalIsLowerBound={totalIsLowerBound}
              page={query.pageNumber}
              pageSize={query.pageSize}
              onPageChange={goToPage}
              onPageSizeChange={setPageSize}
            />
          </Suspense>
        )}
      </>
    );
  }

  return (
    <Box component="main" sx={{ maxWidth: 1760, mx: 'auto', px: { xs: 2, lg: 4 }, py: 3 }}>
      <PageHeader homeUrl={homeUrl} launchpadUrl={launchpadUrl} />
      {unauthorized ? (
        <Paper variant="outlined">
          <Suspense fallback={null}>
            <Unauthorized homeUrl={homeUrl} />
          </Suspense>
        </Paper>
      ) : (
        <>
          <UsersToolbar
            orgId={orgId}
            query={query}
            rows={rows}
            selection={selection}
            selectionTotal={selectionTotal}
            hasSelection={hasSelection}
            columns={columns}
            onSearch={setSearch}
            onFiltersChange={setFilters}
            onActionDone={onActionDone}
          />
          <Paper
            ref={tableArea}
            variant="outlined"
            sx={{ position: 'relative', overflow: 'hidden', minHeight: loading ? 320 : 0, scrollMarginTop: 16 }}
          >
            <Box aria-busy={loading}>{body}</Box>
            {loading && <LoadingOverlay />}
          </Paper>
          {invitation && orgId && (
            <Suspense fallback={null}>
              <InvitationStatus orgId={orgId} request={invitation} />
            </Suspense>
          )}
          {sheetMounted && orgId && (
            <Suspense fallback={null}>
              <UserSheet orgId={orgId} userId={sheet.userId} onClose={sheet.close} supportUrl={supportUrl} />
            </Suspense>
          )}
        </>
      )}
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
    </Box>
  );
}
