/** Resource loading defaults (SPEC.md §9): up to 5 retries, the first after 350 ms, doubling each time. */
export const RESOURCE_RETRY = { retries: 5, firstDelayMs: 350, factor: 2 } as const;

export interface RetryOptions {
  retries: number;
  firstDelayMs: number;
  factor: number;
}

/** The waits before each retry: 350, 700, 1400, 2800, 5600 ms with the defaults. */
export function retryDelays(options: RetryOptions = RESOURCE_RETRY): number[] {
  return Array.from({ length: options.retries }, (_, attempt) => options.firstDelayMs * options.factor ** attempt);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task`, and again after each wait of `retryDelays(options)` while it fails, telling it the
 * attempt (0 first) and the last failure; the last failure is thrown.
 */
export async function retry<T>(
  task: (attempt: number, lastError: unknown) => Promise<T>,
  options: RetryOptions = RESOURCE_RETRY,
): Promise<T> {
  const delays = retryDelays(options);
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    try {
      return await task(attempt, lastError);
    } catch (error) {
      lastError = error;
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      await wait(delay);
    }
  }
}

/**
 * The address of the module a failed dynamic import names: Chromium says "Failed to fetch
 * dynamically imported module: <address>", Firefox "error loading dynamically imported module:
 * <address>". Undefined when it names none (Safari), or for any other failure.
 */
export function failedModuleAddress(error: unknown): string | undefined {
  if (!(error instanceof Error) || !/dynamically imported module/i.test(error.message)) return undefined;
  return /\bhttps?:\/\/\S+/.exec(error.message)?.[0];
}

/** How a module is imported again under a new address: the browser's own `import()`. */
const importAddress = (address: string): Promise<unknown> => import(/* @vite-ignore */ address);

/**
 * Imports a module whose import failed again, under a new address (`?retry=N`): a browser keeps the
 * failure of a dynamic import for its address, so importing the same address again fails without
 * asking the network (whatwg/html#6768; Debian's Chromium 150 does). Each failure raises
 * `vite:preloadError` and is re-thrown unless a listener called preventDefault(), as Vite's own loads
 * do (SPEC.md §8); a module the listener took over resolves to nothing.
 */
async function importAgain<M>(address: string, attempt: number, importModule = importAddress): Promise<M> {
  const fresh = new URL(address);
  fresh.searchParams.set('retry', String(attempt));
  try {
    return (await importModule(fresh.href)) as M;
  } catch (error) {
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
    return undefined as M;
  }
}

/**
 * A lazily loaded module, retried on failure (a chunk that did not arrive, a deploy in between).
 * Callers share one load while it is under way or done; after the last retry fails, the next call
 * starts afresh. `load` is the bare `import()` of the module, not mapped to a part of it: a retry
 * imports the address the failure names and resolves to that module as it is.
 *
 * Each failed attempt raises `vite:preloadError` on the window (SPEC.md §8's generic event): the
 * first through Vite's preload helper, the retries through `importAgain`; each re-throws unless a
 * listener called preventDefault(). Such a listener takes the failure over (typically by reloading
 * the page) and the import then resolves to nothing: the load is left pending rather than rendering
 * a missing component.
 */
export function retryingImport<M>(
  load: () => Promise<M>,
  options: RetryOptions & { importModule?: (address: string) => Promise<unknown> } = RESOURCE_RETRY,
): () => Promise<M> {
  let current: Promise<M> | undefined;
  // A retry imports the module the failure names under a new address; a failure that names none
  // (another browser, or a module this one never asked for) is retried with `load` itself.
  const tryOnce = (attempt: number, lastError: unknown) => {
    const address = attempt > 0 ? failedModuleAddress(lastError) : undefined;
    return address === undefined ? load() : importAgain<M>(address, attempt, options.importModule);
  };
  return () => {
    current ??= retry(tryOnce, options).then(
      (module) => (module === undefined ? new Promise<M>(() => {}) : module),
      (error: unknown) => {
        current = undefined;
        throw error;
      },
    );
    return current;
  };
}
