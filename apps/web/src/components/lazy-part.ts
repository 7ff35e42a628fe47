import { type ComponentType, createElement, lazy } from 'react';

/** A part of the page whose code loads when it is first drawn, or before, through `preload`. */
export type LazyPart<P extends object> = ComponentType<P> & {
  /** Loads the part's code now; once loaded, the part is drawn at once, without suspending. */
  preload(): Promise<unknown>;
};

/**
 * A lazily loaded part of the page (`load` already retries: lib/retry). If its code still cannot be
 * loaded, the part is left out and the rest of the page goes on: React would otherwise unmount the
 * whole page, rows and error messages included, for a footer or a menu. The next load of the page
 * tries again.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        console.error('A part of the page could not be loaded; the page goes on without it', error);
        loaded = () => null;
        return { default: loaded };
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  return Object.assign((props: P) => createElement(loaded ?? Lazy, props), { preload });
}
