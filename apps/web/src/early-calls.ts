// The Users page's first calls, started as soon as the HTML is read: the session
// lookup, then the list the address asks for and the administrator's chosen columns, of
// the session's organisation (or, beside the lookup, of the organisation this browser last saw, below). The HTML loads this small
// script beside the page's bundle (build/early-calls-script.ts); without it both calls would wait
// for the whole bundle to download and run. The page adopts the answers through its HTTP client
// (lib/http/early-calls.ts), so a refused or failed answer takes the usual paths (SPEC.md §4, §8).
// main.tsx imports this module first, so the calls start before the page's own, whichever script
// arrives first.
import { JSON_API_MEDIA_TYPE, preferencesPath, SESSION_PATH } from '@users-admin/contract';
import { paths } from './config/paths.ts';
import { usersListUrl } from './features/users/api/users-list-url.ts';
import { parseUsersSearchParams } from './features/users/model/users-url-query.ts';
import { earlyCalls } from './lib/http/early-calls.ts';
import { getRequestInit, JSON_MEDIA_TYPE } from './lib/http/request-init.ts';
import { createHint } from './lib/storage/hint.ts';

// The organisation of this browser's last session: its list call starts beside the session
// lookup instead of after it. A hint only: the page adopts that call only when the session names
// the same organisation (its address names the organisation); otherwise it is dropped unread and
// the session's own organisation is asked for, as without a hint. The server decides what anyone
// may see, so a stale hint costs one refused call and shows nothing.
const lastOrganisation = createHint('users-admin.organisation');

// Not in the silent sign-in's hidden frame, nor on the other routes.
if (window.location.pathname === paths.users && window.parent === window) {
  const query = parseUsersSearchParams(new URLSearchParams(window.location.search));
  // The list and the chosen columns: the page draws its table once it has both.
  const calls = (orgId: string) => [usersListUrl(orgId, query), preferencesPath(orgId)];
  const remembered = lastOrganisation.read();
  // The session's answer is offered once the list call has started from it, so the page, which
  // waits for the session before asking for the list, always finds the list call under way (and the columns').
  const session = fetch(SESSION_PATH, getRequestInit(JSON_MEDIA_TYPE)).then(async (response) => {
    let orgId: string | undefined;
    if (response.ok) {
      try {
        const claims = (await response.clone().json()) as { org_id?: unknown } | null;
        // An empty organisation is no organisation: the page lists nothing then.
        if (typeof claims?.org_id === 'string' && claims.org_id !== '') orgId = claims.org_id;
      } catch {
        // Not JSON: the page's own lookup reports it.
      }
    }
    if (orgId === remembered) return response;
    // A refused lookup (the page signs in again, then asks for the list itself: its early call
    // was refused too, and adopting it would make a second sign-in), or another organisation.
    if (remembered) for (const call of calls(remembered)) earlyCalls.drop(call, JSON_API_MEDIA_TYPE);
    if (orgId) {
      for (const call of calls(orgId)) earlyCalls.start(call, JSON_API_MEDIA_TYPE);
      lastOrganisation.write(orgId);
    }
    return response;
  });
  earlyCalls.offer(SESSION_PATH, JSON_MEDIA_TYPE, session);
  if (remembered) for (const call of calls(remembered)) earlyCalls.start(call, JSON_API_MEDIA_TYPE);

  // The page formats its counts with Intl.NumberFormat (i18next's `{{count, number}}`), whose first
  // use in a new document loads the browser's number data, in the middle of the first render. One
  // use now, while the page's bundle is still downloading, takes it off that path; later
  // formatters, of any language, cost next to nothing.
  new Intl.NumberFormat().format(0);
}
