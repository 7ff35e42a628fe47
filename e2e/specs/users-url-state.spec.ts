import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, wireParams } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// SPEC.md §2 "URL query parameters": page, pageSize, search, status, isSystemAdmin and sort are the view.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/**
 * Waits for the address bar to say exactly `expected` (defaults are left out) and for the list calls
 * to have been answered: a call still under way when the next change comes is cancelled, and its
 * view is then called again.
 */
async function expectQuery(users: UsersPage, expected: Record<string, string>) {
  await expect.poll(() => users.query()).toEqual(expected);
  await expect.poll(() => users.listCallsInFlight).toBe(0);
}

const lastListCall = (users: UsersPage) => wireParams(users.listRequests.at(-1));

describe('the address is the state of the page', () => {
  it('restores the exact view from a deep link: page, page size, search, filters and sort', async () => {
    const path = '/?page=2&pageSize=50&search=er&status=active&isSystemAdmin=false&sort=-name';
    const users = await suite.open({ path });
    const expected = await users.api({
      'page[size]': 50,
      'page[number]': 2,
      sort: '-name',
      'filter[query]': 'er',
      'filter[status]': 'active',
      'filter[is_system_admin]': 'false',
    });
    const total = expected.meta.total_count;
    expect(total).toBeGreaterThan(50);
    await users.waitForList(51, Math.min(100, total), total);

    expect(users.query()).toEqual(Object.fromEntries(new URL(path, suite.baseUrl).searchParams));
    expect(lastListCall(users)).toEqual({
      'page[size]': '50',
      'page[number]': '2',
      sort: '-name',
      'filter[query]': 'er',
      'filter[status]': 'active',
      'filter[is_system_admin]': 'false',
    });
    expect(await users.rowNames()).toEqual(expected.data.map((user) => user.attributes.name));
    expect(await users.searchBox.inputValue()).toBe('er');
    expect(await users.page.getByRole('button', { name: 'Filter, 2 active filters' }).count()).toBe(1);
    expect(await users.userColumnHeader.getAttribute('aria-sort')).toBe('descending');
    expect(await users.rowsPerPage.textContent()).toBe('50');
    expect(
      await users.pagination.getByRole('button', { name: 'Page 2', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    const filters = await users.openFilters();
    expect(await filters.getByRole('combobox', { name: 'Status' }).textContent()).toBe('Active');
    expect(await filters.getByRole('combobox', { name: 'User type' }).textContent()).toBe('User');
  });

  it('writes every change into the address, leaving defaults out', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(users.query()).toEqual({});

    await users.sortButton.click();
    await expectQuery(users, { sort: 'name' });
    await users.goToPage(2);
    await expectQuery(users, { sort: 'name', page: '2' });
    await users.chooseRowsPerPage(50);
    await expectQuery(users, { sort: 'name', pageSize: '50' });
    await users.search('an');
    await expectQuery(users, { sort: 'name', pageSize: '50', search: 'an' });
    await users.openFilters();
    await users.chooseFilter('Status', 'Active');
    await expectQuery(users, { sort: 'name', pageSize: '50', search: 'an', status: 'active' });
    await users.chooseFilter('User type', 'User');
    await expectQuery(users, { sort: 'name', pageSize: '50', search: 'an', status: 'active', isSystemAdmin: 'false' });
    await users.filtersDialog.getByRole('button', { name: 'Clear all' }).click();
    await expectQuery(users, { sort: 'name', pageSize: '50', search: 'an' });
    await users.closeFilters();
    await users.clearSearchButton.click();
    await expectQuery(users, { sort: 'name', pageSize: '50' });
    await users.chooseRowsPerPage(25);
    await expectQuery(users, { sort: 'name' });
    await users.waitForList(1, 25, ACME_TOTAL);
    // What the page asked the server for followed the address; views seen a moment ago came from the cache.
    expect(users.listRequests.map(wireParams)).toEqual([
      {},
      { sort: 'name' },
      { sort: 'name', 'page[number]': '2' },
      { sort: 'name', 'page[size]': '50' },
      { sort: 'name', 'page[size]': '50', 'filter[query]': 'an' },
      { sort: 'name', 'page[size]': '50', 'filter[query]': 'an', 'filter[status]': 'active' },
      {
        sort: 'name',
        'page[size]': '50',
        'filter[query]': 'an',
        'filter[status]': 'active',
        'filter[is_system_admin]': 'false',
      },
    ]);
  });

  it('keeps both of two changes made in quick succession', async () => {
    const users = await suite.open({ path: '/?sort=name&page=2' });
    await users.waitForList(26, 50, ACME_TOTAL);
    // No waiting between the two: the second change must build on the first.
    await users.chooseRowsPerPage(50);
    await users.search('an');
    await expectQuery(users, { sort: 'name', pageSize: '50', search: 'an' });
    await users.sortButton.click();
    await users.goToPage(2);
    await expectQuery(users, { sort: '-name', pageSize: '50', search: 'an', page: '2' });
  });

  it('moves between views with Back and Forward', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const views: { query: Record<string, string>; names: string[]; search: string }[] = [];
    const remember = async () =>
      views.push({ query: users.query(), names: await users.rowNames(), search: await users.searchBox.inputValue() });
    await remember();

    await users.goToPage(2);
    await users.waitForList(26, 50, ACME_TOTAL);
    await remember();
    await users.sortButton.click();
    await users.waitForList(1, 25, ACME_TOTAL);
    await remember();
    await users.search('an');
    const found = (await users.api({ sort: 'name', 'filter[query]': 'an' })).meta.total_count;
    await users.waitForList(1, 25, found);
    await remember();
    expect(views.map((view) => view.query)).toEqual([
      {},
      { page: '2' },
      { sort: 'name' },
      { sort: 'name', search: 'an' },
    ]);
    // Four different views.
    expect(new Set(views.map((view) => view.names.join('|'))).size).toBe(4);

    const expectView = async (index: number) => {
      const view = views[index];
      if (!view) throw new Error(`no view ${index}`);
      await expectQuery(users, view.query);
      await expect.poll(() => users.busy()).toBe('false');
      await expect.poll(() => users.rowNames()).toEqual(view.names);
      expect(await users.searchBox.inputValue()).toBe(view.search);
    };
    for (const index of [2, 1, 0]) {
      await users.page.goBack();
      await expectView(index);
    }
    for (const index of [1, 2, 3]) {
      await users.page.goForward();
      await expectView(index);
    }
  });

  it('ignores a sort other than name or -name', async () => {
    const users = await suite.open({ path: '/?sort=email' });
    await users.waitForList(1, 25, ACME_TOTAL);
    const unsorted = (await users.api()).data.map((user) => user.attributes.name);
    expect(lastListCall(users)).toEqual({});
    expect(await users.rowNames()).toEqual(unsorted);
    expect(await users.userColumnHeader.getAttribute('aria-sort')).toBeNull();

    for (const sort of ['-email', 'NAME', 'name,-name']) {
      await users.page.goto(`${suite.baseUrl}/?sort=${encodeURIComponent(sort)}`);
      await users.waitForList(1, 25, ACME_TOTAL);
      expect(lastListCall(users), sort).toEqual({});
      expect(await users.rowNames()).toEqual(unsorted);
    }
    // The first click on User still starts at ascending.
    await users.sortButton.click();
    await expectQuery(users, { sort: 'name' });
  });

  it('ignores nonsense values instead of failing, and shows the last page for a page past the end', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const nonsense = [
      '/?page=abc&pageSize=7&status=deleted&isSystemAdmin=yes&sort=random&search=%20%20',
      '/?page=0&pageSize=-25&isSystemAdmin=TRUE&status=Active',
      `/?page=%F0%9F%92%A5&pageSize=ten&search=${'x'.repeat(201)}`,
    ];
    for (const path of nonsense) {
      const before = users.listRequests.length;
      await users.page.goto(`${suite.baseUrl}${path}`);
      await users.waitForList(1, 25, ACME_TOTAL);
      expect(users.listRequests.length, path).toBe(before + 1);
      expect(lastListCall(users), path).toEqual({});
      expect(await users.searchBox.inputValue(), path).toBe('');
      expect(await users.page.getByRole('button', { name: 'Filter', exact: true }).count(), path).toBe(1);
    }
    expect(users.pageErrors).toEqual([]);

    await users.page.goto(`${suite.baseUrl}/?page=999`);
    await users.waitForList(401, ACME_TOTAL, ACME_TOTAL);
    expect(users.query()).toEqual({ page: '17' });
    expect(await users.rows.count()).toBe(ACME_TOTAL - 400);
  });
});
