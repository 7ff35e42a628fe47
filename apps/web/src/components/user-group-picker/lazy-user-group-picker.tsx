import { lazy } from 'react';
import { retryingImport } from '../../lib/retry/retry.ts';

/** Autocomplete and Popper are heavy: the picker is fetched when first rendered, with retries. */
export const loadUserGroupPicker = retryingImport(() => import('./user-group-picker.tsx'));

/** The picker, loaded on demand; render it inside a Suspense boundary. */
export const LazyUserGroupPicker = lazy(() =>
  loadUserGroupPicker().then((module) => ({ default: module.UserGroupPicker })),
);
