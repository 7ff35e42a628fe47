import { type ComponentType, createElement, lazy } from 'react';

/** A part of the page whose code loads when it is first drawn, or before, through `preload`. */
export type LazyPart<P extends object> = ComponentType<P> & {
  /** Loads the part's code now; once loaded, the part is drawn at once, without suspending. */
  preload(): Promise<unknown>;
};

/** Every lazily loaded part, and those the page's first render draws. */
const parts: LazyPart<never>[] = [];
const firstRenderParts: LazyPart<never>[] = [];

/**
 * A lazily loaded part of the page (`load` already retries: lib/retry). If its code still cannot be
 * loaded, the part is left out and the rest of the page goes on: React would otherwise unmount the
 * whole page, rows and error messages included, for a footer or a menu. The next load of the page
 * tries again.
 *
 * `inFirstRender`: the page's first render draws it (the footer). A page the server drew has it
 * drawn, and the browser loads it before taking the page over (app/preload-drawn-parts.ts), so
 * that it takes the whole page over at once.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { inFirstRender = false }: { inFirstRender?: boolean } = {},
): LazyPart<P> {
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
  const part = Object.assign((props: P) => createElement(loaded ?? Lazy, props), { preload });
  parts.push(part as LazyPart<never>);
  if (inFirstRender) firstRenderParts.push(part as LazyPart<never>);
  return part;
}

/** Loads every part's code: the server draws any part a page shows (entry-server.tsx). */
export function preloadAllLazyParts(): Promise<unknown> {
  return Promise.all(parts.map((part) => part.preload()));
}

/** Loads the code of the parts the page's first render draws. */
export function preloadFirstRenderParts(): Promise<unknown> {
  return Promise.all(firstRenderParts.map((part) => part.preload()));
}
