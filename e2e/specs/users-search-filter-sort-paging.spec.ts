import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, BREAKPOINTS, holdListAnswers, wireParams } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// SPEC.md §2 filter menu and pagination, §4 sort, §5 search rules, §9 paging constants.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** The searches (filter[query]) the page asked the server for, in order. */
const searchesMade = (users: UsersPage) =>
  users.listRequests.map((url) => url.searchParams.get('filter[query]')).filter((search) => search !== null);

async function expectQuery(users: UsersPage, expected: Record<string, string>) {
  await expect.poll(() => users.query()).toEqual(expected);
}

describe('search', () => {
  // The page's clock is stopped while typing, and moved on by hand: the 300 ms are counted exactly.
  it('searches 300 ms after the last keystroke, once, not on every key', async () => {
    const users = await suite.open({ setup: ({ page }) => page.clock.install() });
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.page.clock.pauseAt(Date.now() + 60_000);

    await users.searchBox.pressSequentially('rossi');
    await users.page.waitForTimeout(150);
    await users.page.clock.runFor(299);
    expect(searchesMade(users), 'nothing 299 ms after the last key').toEqual([]);
    await users.page.clock.runFor(1);
    await expect.poll(() => searchesMade(users)).toEqual(['rossi']);
    expect(users.query()).toEqual({ search: 'rossi' });

    await users.page.clock.resume();
    const found = (await users.api({ 'filter[query]': 'rossi' })).meta.total_count;
    await users.waitForList(1, Math.min(25, found), found);
    for (const row of await users.readRows()) expect(`${row.name} ${row.email}`.toLowerCase()).toContain('rossi');
    expect(searchesMade(users)).toEqual(['rossi']);
  });

  it('searches at once on Enter, without a second search when the pause ends', async () => {
    const users = await suite.open({ setup: ({ page }) => page.clock.install() });
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.page.clock.pauseAt(Date.now() + 60_000);

    // With the clock stopped the pause can never end: only Enter can search.
    await users.searchBox.fill('smith');
    await users.searchBox.press('Enter');
    await expect.poll(() => searchesMade(users)).toEqual(['smith']);
    expect(users.query()).toEqual({ search: 'smith' });

    await users.page.clock.runFor(1000);
    await users.page.clock.resume();
    const found = (await users.api({ 'filter[query]': 'smith' })).meta.total_count;
    await users.waitForList(1, Math.min(25, found), found);
    expect(searchesMade(users)).toEqual(['smith']);
  });

  it('clearing the search empties the box, removes the parameter and goes back to page 1', async () => {
    const users = await suite.open({ path: '/?search=a&page=3' });
    const found = (await users.api({ 'filter[query]': 'a' })).meta.total_count;
    await users.waitForList(51, 75, found);
    await users.clearSearchButton.click();
    await expectQuery(users, {});
    expect(await users.searchBox.inputValue()).toBe('');
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(wireParams(users.listRequests.at(-1))).toEqual({});

    // Deleting the text by hand does the same after the pause.
    await users.search('rossi');
    await expectQuery(users, { search: 'rossi' });
    await users.searchBox.press('Control+A');
    await users.searchBox.press('Backspace');
    await expectQuery(users, {});
  });

  it('a new search goes back to page 1', async () => {
    const users = await suite.open({ path: '/?page=3&sort=name' });
    await users.waitForList(51, 75, ACME_TOTAL);
    await users.search('an');
    await expectQuery(users, { search: 'an', sort: 'name' });
    const found = (await users.api({ 'filter[query]': 'an' })).meta.total_count;
    await users.waitForList(1, 25, found);
  });
});

describe('filters', () => {
  it('opens a 600 px Filters dialog with Status All/Active/Inactive/Pending and User type All/System Admin/User', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const dialog = await users.openFilters();
    // Its layout width: the box grows in with a transform while it opens.
    expect(await dialog.evaluate((paper) => (paper as HTMLElement).offsetWidth)).toBe(600);
    expect(await dialog.getByRole('button', { name: 'Clear all' }).isDisabled()).toBe(true);

    const options = async (select: 'Status' | 'User type') => {
      await dialog.getByRole('combobox', { name: select }).click();
      const listbox = users.page.getByRole('listbox', { name: select });
      const names = await listbox.getByRole('option').allTextContents();
      await users.page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'detached' });
      return names;
    };
    expect(await options('Status')).toEqual(['All', 'Active', 'Inactive', 'Pending']);
    expect(await options('User type')).toEqual(['All', 'System Admin', 'User']);
    // Closing a select leaves the dialog open; nothing was chosen.
    expect(await dialog.isVisible()).toBe(true);
    expect(users.query()).toEqual({});
  });

  it('filters by status and user type, counts them in the badge, goes back to page 1, and Clear all removes both', async () => {
    const users = await suite.open({ path: '/?page=3' });
    await users.waitForList(51, 75, ACME_TOTAL);
    const dialog = await users.openFilters();

    await users.chooseFilter('Status', 'Pending');
    await expectQuery(users, { status: 'pending' });
    const pending = (await users.api({ 'filter[status]': 'pending' })).meta.total_count;
    await users.waitForList(1, 25, pending);
    expect(new Set((await users.readRows()).map((row) => row.status))).toEqual(new Set(['Pending']));
    expect(await users.filterBadge.textContent()).toBe('1');
    expect(await dialog.getByRole('button', { name: 'Clear all' }).isEnabled()).toBe(true);

    await users.chooseFilter('User type', 'User');
    await expectQuery(users, { status: 'pending', isSystemAdmin: 'false' });
    const pendingUsers = (await users.api({ 'filter[status]': 'pending', 'filter[is_system_admin]': 'false' })).meta
      .total_count;
    await users.waitForList(1, Math.min(25, pendingUsers), pendingUsers);
    for (const row of await users.readRows()) expect([row.status, row.userType]).toEqual(['Pending', 'User']);
    expect(await users.filterBadge.textContent()).toBe('2');

    await users.chooseFilter('User type', 'System Admin');
    await expectQuery(users, { status: 'pending', isSystemAdmin: 'true' });
    await users.chooseFilter('Status', 'All');
    await expectQuery(users, { isSystemAdmin: 'true' });
    const admins = (await users.api({ 'filter[is_system_admin]': 'true' })).meta.total_count;
    await users.waitForList(1, Math.min(25, admins), admins);
    for (const row of await users.readRows()) expect(row.userType).toBe('System Admin');

    await dialog.getByRole('button', { name: 'Clear all' }).click();
    await expectQuery(users, {});
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await dialog.getByRole('button', { name: 'Clear all' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('combobox', { name: 'Status' }).textContent()).toBe('All');
    expect(await dialog.getByRole('combobox', { name: 'User type' }).textContent()).toBe('All');
    await users.closeFilters();
    // The badge shrinks away.
    await expect.poll(() => users.filterBadge.isVisible()).toBe(false);
  });

  it('any filter change goes back to page 1, keeping search, sort and page size', async () => {
    const users = await suite.open({ path: '/?page=2&pageSize=50&sort=-name&search=e' });
    await users.openFilters();
    await users.chooseFilter('User type', 'User');
    await expectQuery(users, { pageSize: '50', sort: '-name', search: 'e', isSystemAdmin: 'false' });
  });
});

describe('sort', () => {
  it('starts unsorted, then sorts A to Z, Z to A, and toggles between the two', async () => {
    const users = await suite.open({ path: '/?page=2' });
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(await users.userColumnHeader.getAttribute('aria-sort')).toBeNull();
    const names = async (sort: string) =>
      (await users.api({ sort })).data.map((user) => user.attributes.name).slice(0, 25);

    const steps: [string, 'ascending' | 'descending'][] = [
      ['name', 'ascending'],
      ['-name', 'descending'],
      ['name', 'ascending'],
      ['-name', 'descending'],
    ];
    for (const [sort, ariaSort] of steps) {
      await users.sortButton.click();
      await expectQuery(users, { sort });
      await users.waitForList(1, 25, ACME_TOTAL);
      expect(await users.userColumnHeader.getAttribute('aria-sort')).toBe(ariaSort);
      expect(await users.rowNames()).toEqual(await names(sort));
    }
  });
});

describe('pagination', () => {
  it('offers 25, 50 and 100 rows per page and labels the footer "from–to of total"', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.displayedRows.textContent()).toBe(`1–25 of ${ACME_TOTAL}`);
    await users.rowsPerPage.click();
    expect(await users.page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['25', '50', '100']);
    await users.page.getByRole('option', { name: '100' }).click();
    await expectQuery(users, { pageSize: '100' });
    await users.waitForList(1, 100, ACME_TOTAL);
    expect(await users.rows.count()).toBe(100);

    await users.goToPage(5);
    await expectQuery(users, { pageSize: '100', page: '5' });
    await users.waitForList(401, ACME_TOTAL, ACME_TOTAL);
    expect(await users.rows.count()).toBe(ACME_TOTAL - 400);
    expect(await users.pagination.getByRole('button', { name: 'Go to next page' }).isDisabled()).toBe(true);

    await users.pagination.getByRole('button', { name: 'Go to previous page' }).click();
    await expectQuery(users, { pageSize: '100', page: '4' });
    await users.waitForList(301, 400, ACME_TOTAL);
    // A new page size starts again at page 1.
    await users.chooseRowsPerPage(50);
    await expectQuery(users, { pageSize: '50' });
    await users.waitForList(1, 50, ACME_TOTAL);
  });

  it('shows fewer sibling pages below the lg breakpoint (769 px)', async () => {
    // A page opened at each width rather than one resized: a resized page was drawn now and then
    // with the previous width's breakpoint styles on CI (see the layout test).
    const openAt = async (width: number) => {
      const users = await suite.open({ path: '/?page=5', viewport: { width, height: 900 } });
      await users.waitForList(101, 125, ACME_TOTAL);
      return users;
    };
    for (const width of [BREAKPOINTS.xl.width, BREAKPOINTS.lg.width, 769]) {
      const users = await openAt(width);
      await expect.poll(() => users.pageButtons(), { message: `${width} px` }).toEqual(['1', '4', '5', '6', '17']);
      await users.close();
    }
    for (const width of [768, BREAKPOINTS.md.width, BREAKPOINTS.sm.width]) {
      const users = await openAt(width);
      await expect.poll(() => users.pageButtons(), { message: `${width} px` }).toEqual(['1', '5', '17']);
      await users.close();
    }
  });

  it('keeps the previous rows on screen, under the loading overlay, until the next page arrives', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const firstPage = await users.rowNames();
    // Watch the table for the fewest rows it ever shows from now on.
    await users.page.evaluate(() => {
      const state = { fewest: Number.POSITIVE_INFINITY };
      Object.assign(window, { __rows: state });
      const count = () => {
        state.fewest = Math.min(state.fewest, document.querySelectorAll('main table tbody tr').length);
      };
      count();
      new MutationObserver(count).observe(document.body, { childList: true, subtree: true });
    });
    const answers = await holdListAnswers(users.page);

    await users.goToPage(2);
    await answers.waitUntilHeld();
    expect(users.query()).toEqual({ page: '2' });
    await users.loadingOverlay.waitFor();
    expect(await users.rowNames()).toEqual(firstPage);
    expect(await users.busy()).toBe('true');
    // The old rows cannot be used meanwhile.
    expect(await users.table.locator('tbody').evaluate((tbody) => (tbody as HTMLElement).inert)).toBe(true);

    await answers.release();
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(await users.loadingOverlay.count()).toBe(0);
    expect(await users.rowNames()).toEqual((await users.api({ 'page[number]': 2 })).data.map((u) => u.attributes.name));
    expect(await users.page.evaluate(() => (window as unknown as { __rows: { fewest: number } }).__rows.fewest)).toBe(
      25,
    );
  });
});
