/**
 * Calls started before the page's code has loaded. `src/early-calls.ts`, a small script
 * the HTML loads beside the page's bundle, starts the Users page's first calls while the bundle
 * downloads; the HTTP client then adopts each answer once, for the same path and Accept header,
 * instead of calling again. `close` ends this when the page's start has taken what it needs: what
 * it did not take is dropped, so no later request is ever answered by an old call.
 */
import { getRequestInit } from './request-init.ts';

export interface EarlyCalls {
  /** Offers `response` as the answer of the page's next GET of `path` accepting `accept`. */
  offer(path: string, accept: string, response: Promise<Response>): void;
  /** Starts a GET now and offers its answer; nothing once closed. */
  start(path: string, accept: string): void;
  /** The early answer for this GET, once; undefined when there is none. */
  take(path: string, accept: string): Promise<Response> | undefined;
  /** Forgets this GET's early answer: the page will make the call itself if it needs it. */
  drop(path: string, accept: string): void;
  /** No more early calls: the ones not taken are dropped. */
  close(): void;
}

export function createEarlyCalls(): EarlyCalls {
  const calls = new Map<string, Promise<Response>>();
  let open = true;
  const keyOf = (path: string, accept: string) => `${accept} ${path}`;

  const offer: EarlyCalls['offer'] = (path, accept, response) => {
    if (!open) return;
    // Until it is adopted, a failed call must not be reported as an unhandled rejection.
    response.catch(() => undefined);
    calls.set(keyOf(path, accept), response);
  };
  return {
    offer,
    start(path, accept) {
      if (open) offer(path, accept, fetch(path, getRequestInit(accept)));
    },
    take(path, accept) {
      const key = keyOf(path, accept);
      const response = calls.get(key);
      calls.delete(key);
      return response;
    },
    drop(path, accept) {
      calls.delete(keyOf(path, accept));
    },
    close() {
      open = false;
      calls.clear();
    },
  };
}

/** The page's one set of early calls. */
export const earlyCalls = createEarlyCalls();
