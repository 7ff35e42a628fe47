// First: the page's first calls start now if the HTML's early script has not started them yet.
import './early-calls.ts';
import '@fontsource-variable/inter';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadAppConfig, loadStartupScripts } from './app/app-config.ts';
import { applyLocale, initI18n } from './app/i18n.ts';
import { createQueryClient } from './app/providers.tsx';
import { paths } from './config/paths.ts';
import { getSessionQueryOptions } from './features/session/api/get-session.ts';
import { getUserColumnsQueryOptions } from './features/users/api/get-user-columns.ts';
import { getUsersQueryOptions } from './features/users/api/get-users.ts';
import { UsersPagination } from './features/users/components/first-render-parts.ts';
import { preloadTimeCells, showsTimes } from './features/users/components/user-row.tsx';
import { parseUsersSearchParams } from './features/users/model/users-url-query.ts';
import { earlyCalls } from './lib/http/early-calls.ts';

initI18n();

// The Users page's calls go into the query cache now, before the page mounts: the session
// (organisation and language), then the list the address asks for and the chosen columns, do not
// wait for React, the lazy parts or the start-up scripts. Both usually adopt the early calls' answers
// (early-calls.ts); the page finds them in its query cache, under way or answered.
const queryClient = createQueryClient();
const startQuery = parseUsersSearchParams(new URLSearchParams(window.location.search));

/** The session's first rows, chosen columns, language and footer: what the first render draws. */
async function loadFirstRender(): Promise<void> {
  // The footer's code is asked for now, not once the first render asks, and awaited with the rows
  // (within FIRST_ROWS_WAIT_MS), so that the page works whole from its first paint.
  const footer = UsersPagination.preload();
  const session = await queryClient.fetchQuery(getSessionQueryOptions());
  if (!session.org_id) return;
  const columnsQuery = getUserColumnsQueryOptions(session.org_id);
  await Promise.all([
    queryClient.prefetchQuery(getUsersQueryOptions(session.org_id, startQuery)),
    queryClient.prefetchQuery(columnsQuery).then(() => {
      // The time columns' code, when they are chosen: the first render then draws them.
      const columns = queryClient.getQueryData(columnsQuery.queryKey);
      return columns && showsTimes(columns) ? preloadTimeCells() : undefined;
    }),
    applyLocale(session.locale),
    footer,
  ]);
}

const firstRows =
  window.location.pathname === paths.users
    ? loadFirstRender()
        .catch(() => undefined)
        .finally(earlyCalls.close)
    : Promise.resolve(earlyCalls.close());

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// The start-up scripts go into the head before the page mounts (SPEC.md §7), and are not waited
// for; the hidden frame of a silent sign-in needs neither.
const startupScripts = loadAppConfig()
  .then((config) => {
    if (window.location.pathname !== paths.oidcCallback) loadStartupScripts(config);
  })
  .catch((error: unknown) => console.error('The start-up scripts could not be added', error));
// The page mounts once its first rows are in the query cache, so React draws it once, with them,
// instead of its loading state and then the rows; when they take longer than FIRST_ROWS_WAIT_MS,
// it mounts then and shows the loading overlay until they come (SPEC.md §2).
const FIRST_ROWS_WAIT_MS = 150;
const firstRender = Promise.race([firstRows, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT_MS))]);
// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread in one long task; nothing is on screen before its commit.
void Promise.all([startupScripts, firstRender]).then(() => {
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    );
  });
});
