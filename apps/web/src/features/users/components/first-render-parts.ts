import { lazyPart } from '../../../components/lazy-part.ts';
import { retryingImport } from '../../../lib/retry/retry.ts';

// The lazily loaded parts the page's first render may draw, apart from the page so that main.tsx
// can ask for the footer's code beside the first calls, without importing the page.

// The footer needs the rows-per-page Select (and with it Menu, Popover, Modal): it loads beside the
// first rows, in a Suspense of its own, instead of adding to the first render's bundle.
export const UsersPagination = lazyPart(() =>
  retryingImport(() => import('./users-pagination.tsx'))().then((module) => module.UsersPagination),
);

// What shows instead of rows (no users, nothing found, a failed load, not allowed), in a chunk of its own.
export const loadMessages = retryingImport(() => import('./users-messages.tsx'));
export const NotFound = lazyPart(() => loadMessages().then((module) => module.NotFound));
export const LoadError = lazyPart(() => loadMessages().then((module) => module.LoadError));
export const NoResults = lazyPart(() => loadMessages().then((module) => module.NoResults));
export const Unauthorized = lazyPart(() => loadMessages().then((module) => module.Unauthorized));
