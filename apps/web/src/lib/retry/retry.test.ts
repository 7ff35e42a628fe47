import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESOURCE_RETRY, retry, retryDelays, retryingImport } from './retry.ts';

/** Records when (in fake time) each attempt of a task ran. */
function failingTask(failures: number) {
  const attempts: number[] = [];
  const task = vi.fn(async () => {
    attempts.push(Date.now());
    if (attempts.length <= failures) throw new Error(`failure ${attempts.length}`);
    return 'loaded';
  });
  return { task, attempts };
}

describe('retry schedule (SPEC.md §9 resource loading defaults)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 350, 700, 1400, 2800 and 5600 ms', () => {
    expect(RESOURCE_RETRY).toEqual({ retries: 5, firstDelayMs: 350, factor: 2 });
    expect(retryDelays()).toEqual([350, 700, 1400, 2800, 5600]);
  });

  it('succeeds at once without waiting', async () => {
    const { task, attempts } = failingTask(0);
    await expect(retry(task)).resolves.toBe('loaded');
    expect(attempts).toEqual([0]);
  });

  it('retries after 350 ms, then 700 ms more, until the task succeeds', async () => {
    const { task, attempts } = failingTask(2);
    const result = retry(task);
    await vi.advanceTimersByTimeAsync(349);
    expect(attempts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toEqual([0, 350]);
    await vi.advanceTimersByTimeAsync(700);
    await expect(result).resolves.toBe('loaded');
    expect(attempts).toEqual([0, 350, 1050]);
  });

  it('gives up after 5 retries with the last error, 10 850 ms after the first attempt', async () => {
    const { task, attempts } = failingTask(Number.POSITIVE_INFINITY);
    const result = retry(task);
    const settled = expect(result).rejects.toThrow('failure 6');
    await vi.advanceTimersByTimeAsync(20_000);
    await settled;
    expect(attempts).toEqual([0, 350, 1050, 2450, 5250, 10_850]);
  });

  it('follows other options', async () => {
    expect(retryDelays({ retries: 3, firstDelayMs: 100, factor: 3 })).toEqual([100, 300, 900]);
    const { task, attempts } = failingTask(Number.POSITIVE_INFINITY);
    const settled = expect(retry(task, { retries: 0, firstDelayMs: 350, factor: 2 })).rejects.toThrow('failure 1');
    await settled;
    expect(attempts).toEqual([0]);
  });
});

describe('retryingImport', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shares one load between callers and retries it on failure', async () => {
    const { task } = failingTask(1);
    const load = retryingImport(task);
    const first = load();
    const second = load();
    expect(second).toBe(first);
    await vi.advanceTimersByTimeAsync(350);
    await expect(first).resolves.toBe('loaded');
    await expect(load()).resolves.toBe('loaded');
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('starts afresh on the next call once every retry failed', async () => {
    const { task } = failingTask(6);
    const load = retryingImport(task);
    const failed = expect(load()).rejects.toThrow('failure 6');
    await vi.advanceTimersByTimeAsync(10_850);
    await failed;
    await expect(load()).resolves.toBe('loaded');
    expect(task).toHaveBeenCalledTimes(7);
  });

  it('imports a module whose import failed again under a new address, which a browser that keeps the failure asks the network for, raising vite:preloadError at each failure', async () => {
    const address = 'http://127.0.0.1/assets/filters-popover-abc.js';
    const load = vi.fn(async () => {
      throw new TypeError(`Failed to fetch dynamically imported module: ${address}`);
    });
    const asked: string[] = [];
    const importModule = vi.fn(async (fresh: string) => {
      asked.push(fresh);
      if (asked.length < 3) throw new TypeError(`Failed to fetch dynamically imported module: ${fresh}`);
      return { Popover: 'loaded' };
    });
    let preloadErrors = 0;
    const count = () => {
      preloadErrors += 1;
    };
    window.addEventListener('vite:preloadError', count);
    try {
      const loaded = retryingImport(load, { ...RESOURCE_RETRY, importModule })();
      await vi.advanceTimersByTimeAsync(350 + 700 + 1400);
      await expect(loaded).resolves.toEqual({ Popover: 'loaded' });
    } finally {
      window.removeEventListener('vite:preloadError', count);
    }
    expect(load).toHaveBeenCalledTimes(1);
    expect(asked).toEqual([`${address}?retry=1`, `${address}?retry=2`, `${address}?retry=3`]);
    // The first failure is Vite's to raise (its preload helper); the two retries that failed raised theirs.
    expect(preloadErrors).toBe(2);
  });

  it('stays pending when a preload-error listener took the failure over (the import gave nothing)', async () => {
    const load = retryingImport(async () => undefined as unknown as { Component: string });
    let settled = false;
    void load().finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
  });
});
