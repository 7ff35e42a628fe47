import type { Page } from 'playwright-core';
import { DRAWN_PART_ATTRIBUTE } from '../../apps/web/src/app/server-rendered.ts';

/**
 * A page the server drew is inert until the page's code has taken it over, and each of its parts until
 * that part is (apps/web/src/app/take-over.tsx). One selector for the tests and the benchmarks' probe.
 */
export const NOT_TAKEN_OVER = `#root[inert], #root [${DRAWN_PART_ATTRIBUTE}][inert]`;

export async function takenOver(page: Page): Promise<void> {
  await page.waitForFunction((selector) => !document.querySelector(selector), NOT_TAKEN_OVER, { timeout: 15_000 });
}
