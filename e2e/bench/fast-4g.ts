// Navigation start → first user row over an emulated fast 4G link: Chromium throttles
// each request to the link's bandwidth and adds its latency; every run a new context (cold cache).
import type { Browser } from 'playwright-core';
import type { StorageState } from '../support/seeded-server.ts';
import { firstRowAt, newContext } from './probe.ts';

/** About 9 Mbit/s down, 1.5 Mbit/s up, 60 ms of latency, in the units of CDP (bytes per second). */
export const FAST_4G = {
  offline: false,
  latency: 60,
  downloadThroughput: (9 * 1_000_000) / 8,
  uploadThroughput: (1.5 * 1_000_000) / 8,
};

export const FAST_4G_BUDGET_MS = 1200;

/** Cold loads of `url` over the emulated link: navigation start → first user row, each run. */
export async function firstRowOverFast4g(
  browser: Browser,
  url: string,
  state: StorageState,
  runs: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const context = await newContext(browser, state);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_4G);
    await page.goto(url);
    times.push(await firstRowAt(page));
    await context.close();
  }
  return times;
}
