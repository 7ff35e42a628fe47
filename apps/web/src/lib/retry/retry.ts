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
 * Runs `task`, and again after each wait of `retryDelays(options)` while it fails; the last
 * failure is thrown.
 */
export async function retry<T>(task: () => Promise<T>, options: RetryOptions = RESOURCE_RETRY): Promise<T> {
  const delays = retryDelays(options);
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined) throw error;
      await wait(delay);
    }
  }
}

/**
 * A lazily loaded module, retried on failure (a chunk that did not arrive, a deploy in between).
 * Callers share one load while it is under way or done; after the last retry fails, the next call
 * starts afresh.
 *
 * Each failed attempt goes through Vite's preload helper, which raises `vite:preloadError` on the
 * window (SPEC.md §8's generic event) and re-throws unless a listener called preventDefault().
 * Such a listener takes the failure over (typically by reloading the page) and the import then
 * resolves to nothing: the load is left pending rather than rendering a missing component.
 */
export function retryingImport<M>(load: () => Promise<M>, options: RetryOptions = RESOURCE_RETRY): () => Promise<M> {
  let current: Promise<M> | undefined;
  return () => {
    current ??= retry(load, options).then(
      (module) => (module === undefined ? new Promise<M>(() => {}) : module),
      (error: unknown) => {
        current = undefined;
        throw error;
      },
    );
    return current;
  };
}
