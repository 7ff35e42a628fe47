// First: the page's first calls start now if the HTML's early script has not started them yet.
import './early-calls.ts';
// Second: the code of the lazy parts the server drew starts loading (app/preload-drawn-parts.ts).
import './app/preload-drawn-parts.ts';
import '@fontsource-variable/inter';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadAppConfig, loadStartupScripts } from './app/app-config.ts';
import { applyLocale, initI18n } from './app/i18n.ts';
import { createQueryClient } from './app/providers.tsx';
import { SERVER_RENDERED_ATTRIBUTE } from './app/server-rendered.ts';
import { TakeOver } from './app/take-over.tsx';
import { paths } from './config/paths.ts';
import { getSessionQueryOptions } from './features/session/api/get-session.ts';
import { getUserColumnsQueryOptions } from './features/users/api/get-user-columns.ts';
import { getUsersQueryOptions } from './features/users/api/get-users.ts';
import { preloadTimeCells, showsTimes } from './features/users/components/user-row.tsx';
import { parseUsersSearchParams } from './features/users/model/users-url-query.ts';
import { earlyCalls } from './lib/http/early-calls.ts';

initI18n();

// The Users page's calls go into the query cache now, before the page mounts: the session
// (organisation and language), then the list the address asks for and the chosen columns (issue
// 29), do not wait for React, the lazy parts or the start-up scripts (issue 6). Both usually adopt the early calls' answers
// (early-calls.ts); the page finds them in its query cache, under way or answered.
const queryClient = createQueryClient();
const startQuery = parseUsersSearchParams(new URLSearchParams(window.location.search));
let firstRows: Promise<unknown> = Promise.resolve();
if (window.location.pathname === paths.users) {
  firstRows = queryClient
    .fetchQuery(getSessionQueryOptions())
    .then((session) =>
      session.org_id
        ? Promise.all([
            queryClient.prefetchQuery(getUsersQueryOptions(session.org_id, startQuery)),
            queryClient.prefetchQuery(getUserColumnsQueryOptions(session.org_id)).then(() => {
              // The time columns' code, when they are chosen: the first render then draws them.
              const columns = queryClient.getQueryData(getUserColumnsQueryOptions(session.org_id).queryKey);
              return columns && showsTimes(columns) ? preloadTimeCells() : undefined;
            }),
          ])
        : undefined,
    )
    .catch(() => undefined)
    .finally(earlyCalls.close);
} else {
  earlyCalls.close();
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The server drew the page into the HTML (entry-server.tsx): its rows are on screen already.
const serverRendered = root.hasAttribute(SERVER_RENDERED_ATTRIBUTE);

function mount() {
  if (!root) return;
  const app = (
    <StrictMode>
      <TakeOver>
        <App queryClient={queryClient} />
      </TakeOver>
    </StrictMode>
  );
  // The page takes the drawn one over (hydrates it) when its own calls gave what the server's did.
  // Otherwise (a call failed or was refused since) it draws itself, as without the server.
  const answered = (queryKey: readonly unknown[]) => queryClient.getQueryState(queryKey)?.status === 'success';
  const session = queryClient.getQueryData(getSessionQueryOptions().queryKey);
  const hydratable =
    serverRendered &&
    session !== undefined &&
    answered(getUsersQueryOptions(session.org_id, startQuery).queryKey) &&
    answered(getUserColumnsQueryOptions(session.org_id).queryKey);
  if (hydratable) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for one long task; the drawn rows are on screen meanwhile (issue 30).
    startTransition(() => {
      hydrateRoot(root, app);
    });
    return;
  }
  if (serverRendered) root.replaceChildren();
  createRoot(root).render(app);
}

// The start-up scripts go into the head before the page mounts (SPEC.md §7), and are not waited
// for; the hidden frame of a silent sign-in needs neither.
const startupScripts = loadAppConfig()
  .then((config) => {
    if (window.location.pathname !== paths.oidcCallback) loadStartupScripts(config);
  })
  .catch((error: unknown) => console.error('The start-up scripts could not be added', error));
// The page mounts once its first rows are in the query cache, so React draws it once, with them,
// instead of its loading state and then the rows (issue 6); when they take longer than
// FIRST_ROWS_WAIT_MS, it mounts then and shows the loading overlay until they come (SPEC.md §2).
const FIRST_ROWS_WAIT_MS = 150;
// A page the server drew waits for them, in the session's language, since its rows are on screen.
const firstRender = serverRendered
  ? firstRows.then(() => applyLocale(queryClient.getQueryData(getSessionQueryOptions().queryKey)?.locale))
  : Promise.race([firstRows, new Promise((resolve) => setTimeout(resolve, FIRST_ROWS_WAIT_MS))]);
void Promise.all([startupScripts, firstRender]).then(mount);
