import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wireParams } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// The Data source and Last sign-in filters, through the URL and the Filters dialog, against
// the real server: the page asks for them and shows exactly the users the API gives for them.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** Waits for the list the API gives for `params`, and checks that the page shows its first page. */
async function expectListOf(users: UsersPage, params: Record<string, string>) {
  const answer = await users.api(params);
  const total = answer.meta.total_count;
  expect(total, JSON.stringify(params)).toBeGreaterThan(0);
  await users.waitForList(1, Math.min(25, total), total);
  expect(await users.rowNames()).toEqual(answer.data.map((user) => user.attributes.name));
  return answer;
}

describe('the Data source and Last sign-in filters', () => {
  it('filter the list from the URL, ask the API for them and count in the Filter badge', async () => {
    const users = await suite.open({ path: '/?isExternal=true&lastSignIn=not90d' });
    const answer = await expectListOf(users, { 'filter[is_external]': 'true', 'filter[last_sign_in]': 'not90d' });
    for (const user of answer.data) expect(user.attributes.is_external).toBe(true);
    expect(wireParams(users.listRequests.at(-1))).toEqual({
      'filter[is_external]': 'true',
      'filter[last_sign_in]': 'not90d',
    });
    expect((await users.readRows()).every((row) => row.dataSource === 'Third party')).toBe(true);
    expect(await users.filterButton.getAttribute('aria-label')).toBe('Filter, 2 active filters');
    expect(await users.filterBadge.textContent()).toBe('2');
  });

  it('are chosen in the Filters dialog, go back to page 1, combine with the others and are cleared by Clear all', async () => {
    const users = await suite.open({ path: '/?page=2&status=active&sort=-name' });
    await users.openFilters();
    await users.chooseFilter('Data source', 'Platform');
    await expect.poll(() => users.query()).toEqual({ status: 'active', isExternal: 'false', sort: '-name' });
    await users.chooseFilter('Last sign-in', 'In the last 30 days');
    await expect
      .poll(() => users.query())
      .toEqual({
        status: 'active',
        isExternal: 'false',
        lastSignIn: '30d',
        sort: '-name',
      });
    await users.closeFilters();
    await expectListOf(users, {
      'filter[status]': 'active',
      'filter[is_external]': 'false',
      'filter[last_sign_in]': '30d',
      sort: '-name',
    });
    expect(await users.filterBadge.textContent()).toBe('3');

    await users.openFilters();
    const dialog = users.filtersDialog;
    expect(await dialog.getByRole('combobox', { name: 'Data source' }).textContent()).toBe('Platform');
    expect(await dialog.getByRole('combobox', { name: 'Last sign-in' }).textContent()).toBe('In the last 30 days');
    await dialog.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => users.query()).toEqual({ sort: '-name' });
    expect(await dialog.getByRole('combobox', { name: 'Data source' }).textContent()).toBe('All');
    expect(await dialog.getByRole('combobox', { name: 'Last sign-in' }).textContent()).toBe('Any time');
  });

  it('find the accounts that never signed in, with a search, and page through them', async () => {
    const users = await suite.open({ path: '/?lastSignIn=never&search=a' });
    const answer = await expectListOf(users, { 'filter[last_sign_in]': 'never', 'filter[query]': 'a' });
    // Never signed in is also "not in the last 90 days".
    const stale = await users.api({ 'filter[last_sign_in]': 'not90d', 'filter[query]': 'a' });
    expect(stale.meta.total_count).toBeGreaterThanOrEqual(answer.meta.total_count);
    for (const user of answer.data) expect(user.attributes.last_sign_in_at).toBeNull();
  });

  it('are chosen with the keyboard', async () => {
    const users = await suite.open();
    await users.filterButton.focus();
    await users.page.keyboard.press('Enter');
    const lastSignIn = users.filtersDialog.getByRole('combobox', { name: 'Last sign-in' });
    await lastSignIn.focus();
    await users.page.keyboard.press('Enter');
    const listbox = users.page.getByRole('listbox', { name: 'Last sign-in' });
    await listbox.waitFor();
    // Any time → In the last 30 days → Not in the last 90 days.
    await users.page.keyboard.press('ArrowDown');
    await users.page.keyboard.press('ArrowDown');
    await users.page.keyboard.press('Enter');
    await listbox.waitFor({ state: 'detached' });
    await expect.poll(() => users.query()).toEqual({ lastSignIn: 'not90d' });
    await users.page.keyboard.press('Escape');
    await users.filtersDialog.waitFor({ state: 'hidden' });
    expect(await users.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Filter, 1 active filter',
    );
  });
});
