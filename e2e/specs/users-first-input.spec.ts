import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Nothing shown is dead: what the page shows works from the moment it shows it, on a cold load
// (each test opens a new browser context, with an empty cache).
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** In the page before its code: when the first user row is on screen (performance.now()). */
const FIRST_ROW = () => {
  new MutationObserver((_, observer) => {
    const row = [...document.querySelectorAll('main tbody tr')].find((tr) => tr.textContent?.includes('@'));
    if (!row) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      (window as unknown as { firstRowAt: number }).firstRowAt = performance.now();
    });
  }).observe(document, { childList: true, subtree: true });
};

/** Opens the page cold and returns once its first row is on screen, as soon as the test sees it. */
async function openCold(): Promise<UsersPage> {
  const users = await suite.open({
    waitUntil: 'commit',
    setup: async ({ page }) => {
      await page.addInitScript(FIRST_ROW);
    },
  });
  await users.page.waitForFunction(() => typeof (window as unknown as { firstRowAt?: number }).firstRowAt === 'number');
  return users;
}

/** Waits until `ms` after the first row showed (at once if that has passed). */
async function untilAfterFirstRow(page: Page, ms: number): Promise<void> {
  const since = await page.evaluate(() => performance.now() - (window as unknown as { firstRowAt: number }).firstRowAt);
  if (since < ms) await page.waitForTimeout(ms - since);
}

/** A plain mouse click at the middle of `target`: no waiting for it to be ready, as a person clicks. */
async function clickAt(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error(`${target} is not on screen`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** What has the focus: a row's checkbox, the sort button, a user's name, or something else. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    if (element.matches('main tbody input[type=checkbox]')) return 'row checkbox';
    if (element.closest('main thead') && /^User/.test(element.textContent ?? '')) return 'sort';
    if (element.matches('main tbody a[data-user-id]')) return 'name';
    return element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? element.tagName;
  });

describe('the first input after the first row', () => {
  it('reaches the checkboxes, the sort button and the names by Tab from the moment the first row shows', async () => {
    const users = await openCold();
    const reached = new Set<string>();
    const walk: string[] = [];
    for (let press = 0; press < 40 && reached.size < 3; press++) {
      await users.page.keyboard.press('Tab');
      const where = await focused(users.page);
      walk.push(where);
      if (['row checkbox', 'sort', 'name'].includes(where)) reached.add(where);
    }
    expect([...reached].sort(), walk.join(' → ')).toEqual(['name', 'row checkbox', 'sort']);
    expect(await users.page.locator('#root [inert]').count()).toBe(0);
  });

  it("keeps a click on a row's checkbox 50 ms after the first row shows", async () => {
    const users = await openCold();
    const name = (await users.readRows()).find((row) => !row.checkbox.disabled)?.name;
    if (!name) throw new Error('no selectable user on the first page');
    await untilAfterFirstRow(users.page, 50);
    await clickAt(users.page, users.rowCheckbox(name));
    await expect.poll(() => users.rowCheckbox(name).isChecked()).toBe(true);
    await expect.poll(() => users.selectionText()).toBe('1 selected');
  });

  it("keeps a click on a user's name 50 ms after the first row shows: the sheet opens in place", async () => {
    const users = await openCold();
    const name = (await users.readRows())[0]?.name ?? '';
    await users.page.evaluate(() => {
      (window as unknown as { samePage: boolean }).samePage = true;
    });
    await untilAfterFirstRow(users.page, 50);
    await clickAt(users.page, users.page.locator('main tbody a[data-user-id]').first());
    await users.page.getByRole('dialog', { name }).waitFor();
    expect(new URL(users.page.url()).searchParams.get('user')).not.toBeNull();
    expect(await users.page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  });
});
