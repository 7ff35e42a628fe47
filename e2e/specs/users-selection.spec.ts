import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, Suite, type UsersPage } from '../support/users-page.ts';

// SPEC.md §4 "Selection" and §6: third-party users cannot be selected.
const suite = new Suite();
beforeAll(() => suite.start());
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

async function rowsByKind(users: UsersPage) {
  const rows = await users.readRows();
  return {
    selectable: rows.filter((row) => !row.checkbox.disabled).map((row) => row.name),
    external: rows.filter((row) => row.checkbox.disabled).map((row) => row.name),
  };
}
const checkedNames = async (users: UsersPage) =>
  (await users.readRows()).filter((row) => row.checkbox.checked).map((row) => row.name);

/** Ticks the first `count` selectable rows and waits for the banner to count them. */
async function selectSome(users: UsersPage, count: number) {
  const { selectable } = await rowsByKind(users);
  for (const name of selectable.slice(0, count)) await users.rowCheckbox(name).click();
  await expect.poll(() => users.selectionText()).toBe(`${count} selected`);
}

const headerState = (users: UsersPage) =>
  users.pageCheckbox.evaluate((input: HTMLInputElement) =>
    input.indeterminate ? 'mixed' : input.checked ? 'checked' : 'unchecked',
  );

describe('selection', () => {
  it('a row checkbox toggles its row, and the banner counts the selection', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const [a, b] = (await rowsByKind(users)).selectable;
    if (!a || !b) throw new Error('need two selectable users');
    expect(await users.selectionText()).toBeNull();

    await users.rowCheckbox(a).click();
    await expect.poll(() => users.selectionText()).toBe('1 selected');
    expect(await checkedNames(users)).toEqual([a]);
    expect(await users.page.getByRole('button', { name: `Select all ${ACME_TOTAL} users` }).isVisible()).toBe(true);

    await users.rowCheckbox(b).click();
    await expect.poll(() => users.selectionText()).toBe('2 selected');
    await users.rowCheckbox(a).click();
    await expect.poll(() => users.selectionText()).toBe('1 selected');
    expect(await checkedNames(users)).toEqual([b]);
    await users.rowCheckbox(b).click();
    await expect.poll(() => users.selectionText()).toBeNull();
    expect(await checkedNames(users)).toEqual([]);
  });

  it('the header checkbox selects every non-external user of the page, is mixed when partial, and clears them', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const { selectable, external } = await rowsByKind(users);
    expect(external.length).toBeGreaterThan(0);
    expect(await headerState(users)).toBe('unchecked');

    await users.pageCheckbox.click();
    await expect.poll(() => users.selectionText()).toBe(`${selectable.length} selected (all on this page)`);
    expect(await checkedNames(users)).toEqual(selectable);
    expect(await headerState(users)).toBe('checked');

    const [first] = selectable;
    if (!first) throw new Error('no selectable user');
    await users.rowCheckbox(first).click();
    await expect.poll(() => users.selectionText()).toBe(`${selectable.length - 1} selected`);
    expect(await headerState(users)).toBe('mixed');
    // Assistive technology hears "mixed" too.
    expect(await users.pageCheckbox.ariaSnapshot()).toContain('[checked=mixed]');

    // From mixed, the header completes the page; once more, it clears it.
    await users.pageCheckbox.click();
    await expect.poll(() => users.selectionText()).toBe(`${selectable.length} selected (all on this page)`);
    await users.pageCheckbox.click();
    await expect.poll(() => users.selectionText()).toBeNull();
    expect(await checkedNames(users)).toEqual([]);
    expect(await headerState(users)).toBe('unchecked');
  });

  it('third-party users cannot be selected, and their checkbox says why', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const [external] = (await rowsByKind(users)).external;
    if (!external) throw new Error('no third-party user on the first page');
    const checkbox = users.rowCheckbox(external);
    expect(await checkbox.isDisabled()).toBe(true);
    const row = users.rows.filter({ has: checkbox });
    expect((await row.locator('td').nth(1).textContent()) ?? '').toBe('Third party');

    // Clicking it does nothing.
    await checkbox.click({ force: true });
    expect(await checkbox.isChecked()).toBe(false);
    expect(await users.selectionText()).toBeNull();

    await checkbox.hover({ force: true });
    const tooltip = users.page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toBe('You cannot select Third party users');
  });

  it('"Select all 423 users" selects the whole list; unticking one offers it again', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const { selectable } = await rowsByKind(users);
    await users.pageCheckbox.click();
    const selectAll = users.page.getByRole('button', { name: `Select all ${ACME_TOTAL} users` });
    await selectAll.click();
    await expect.poll(() => users.selectionText()).toBe(`All ${ACME_TOTAL} users selected`);
    await selectAll.waitFor({ state: 'detached' });
    expect(await checkedNames(users)).toEqual(selectable);
    expect(await headerState(users)).toBe('checked');

    const [first] = selectable;
    if (!first) throw new Error('no selectable user');
    await users.rowCheckbox(first).click();
    await expect.poll(() => users.selectionText()).toBe(`${ACME_TOTAL - 1} selected`);
    expect(await selectAll.isVisible()).toBe(true);
  });

  it('the clear-selection button empties the selection', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await selectSome(users, 3);
    await users.clearSelectionButton.click();
    await expect.poll(() => users.selectionText()).toBeNull();
    expect(await checkedNames(users)).toEqual([]);
    expect(await headerState(users)).toBe('unchecked');
  });

  it('any change of the address query clears the selection', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);

    await selectSome(users, 2);
    await users.goToPage(2);
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(await users.selectionText()).toBeNull();
    // Coming back does not bring the old selection back.
    await users.page.goBack();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.selectionText()).toBeNull();
    expect(await checkedNames(users)).toEqual([]);

    await selectSome(users, 2);
    await users.sortButton.click();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.selectionText()).toBeNull();

    await selectSome(users, 2);
    await users.search('e');
    await expect.poll(() => users.query()).toEqual({ sort: 'name', search: 'e' });
    expect(await users.selectionText()).toBeNull();

    await users.page.waitForFunction(
      () => document.querySelector('main [aria-busy]')?.getAttribute('aria-busy') === 'false',
    );
    await selectSome(users, 2);
    await users.openFilters();
    await users.chooseFilter('Status', 'Active');
    await users.closeFilters();
    expect(await users.selectionText()).toBeNull();

    await users.page.waitForFunction(
      () => document.querySelector('main [aria-busy]')?.getAttribute('aria-busy') === 'false',
    );
    await selectSome(users, 2);
    await users.chooseRowsPerPage(50);
    await expect.poll(() => users.query()).toEqual({ sort: 'name', search: 'e', status: 'active', pageSize: '50' });
    expect(await users.selectionText()).toBeNull();
  });
});
