import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';

// The lazily loaded parts the page's first render may draw, apart from the page so that main.tsx
// can import them first: a page the server drew then asks for their code as the bundle starts to
// run (app/preload-drawn-parts.ts), not once all of it has run, and is taken over sooner.

// The footer needs the rows-per-page Select (and with it Menu, Popover, Modal): it loads once the
// first render asks for it, in a Suspense of its own, instead of holding up the rows.
export const UsersPagination = lazyPart(
  () => retryingImport(() => import('./users-pagination.tsx'))().then((module) => module.UsersPagination),
  { inFirstRender: true },
);

// What shows instead of rows (no users, nothing found, a failed load, not allowed), in a chunk of its own.
export const loadMessages = retryingImport(() => import('./users-messages.tsx'));
export const NotFound = lazyPart(() => loadMessages().then((module) => module.NotFound), { inFirstRender: true });
export const LoadError = lazyPart(() => loadMessages().then((module) => module.LoadError), { inFirstRender: true });
export const NoResults = lazyPart(() => loadMessages().then((module) => module.NoResults), { inFirstRender: true });
export const Unauthorized = lazyPart(() => loadMessages().then((module) => module.Unauthorized), {
  inFirstRender: true,
});
