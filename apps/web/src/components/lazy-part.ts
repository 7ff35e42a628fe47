import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A lazily loaded part of the page (`load` already retries: lib/retry). If its code still cannot be
 * loaded, the part is left out and the rest of the page goes on: React would otherwise unmount the
 * whole page, rows and error messages included, for a footer or a menu. The next load of the page
 * tries again.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        console.error('A part of the page could not be loaded; the page goes on without it', error);
        return { default: () => null };
      },
    ),
  );
}
