import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// SPEC.md §4 "Selection" and §6: third-party users cannot be selected.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
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

  it('a keyboard reaches a third-party user’s checkbox: the tooltip shows, a screen reader hears why, Space does nothing', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const rows = await users.readRows();
    const at = rows.findIndex((row) => row.checkbox.disabled);
    const external = rows[at];
    if (!external || at === 0) throw new Error('need a third-party user after the first row');

    // The tooltips' code is loaded (as it is once the browser has been idle), so the tooltip below
    // opens from MUI's own focus handling, not from the lazy loader's catch-up.
    await users.page.getByRole('button', { name: 'More about Status' }).hover();
    await users.page.getByRole('tooltip').waitFor();
    await users.page.mouse.move(0, 0);
    await users.page.getByRole('tooltip').waitFor({ state: 'detached' });

    // Focus the last control of the row before it, then one Tab, as a keyboard user moves.
    const previous = users.rows.nth(at - 1);
    const lastControl = previous.locator('button, input').last();
    await lastControl.focus();
    await users.page.keyboard.press('Tab');
    const checkbox = users.rowCheckbox(external.name);
    await expect.poll(() => checkbox.evaluate((input) => input === document.activeElement)).toBe(true);

    // The tooltip opens on keyboard focus, next to the checkbox (just above or below, overlapping it sideways).
    const tooltip = users.page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toBe('You cannot select Third party users');
    const [tip, box] = await Promise.all([tooltip.boundingBox(), checkbox.boundingBox()]);
    if (!tip || !box) throw new Error('tooltip or checkbox not laid out');
    expect(tip.x < box.x + box.width && tip.x + tip.width > box.x).toBe(true);
    expect(Math.min(Math.abs(tip.y - (box.y + box.height)), Math.abs(box.y - (tip.y + tip.height)))).toBeLessThan(24);

    // What assistive technology gets: a checkbox, named for the user, unavailable, described by the reason.
    expect(await checkbox.getAttribute('aria-disabled')).toBe('true');
    expect(await checkbox.evaluate((input) => (input as HTMLInputElement).disabled)).toBe(false);
    const description = await checkbox.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim(),
    );
    expect(description).toBe('You cannot select Third party users');
    const snapshot = await checkbox.ariaSnapshot();
    expect(snapshot).toContain(`checkbox "Select ${external.name}"`);
    expect(snapshot).toContain('[disabled]');
    // Chromium's own accessibility tree agrees (what a screen reader reads).
    const cdp = await users.context.newCDPSession(users.page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[];
    };
    const node = nodes.find((n) => n.role?.value === 'checkbox' && n.name?.value === `Select ${external.name}`);
    expect(node?.description?.value).toBe('You cannot select Third party users');

    // Space, the key that ticks a checkbox, leaves it unticked and selects nobody.
    await users.page.keyboard.press('Space');
    expect(await checkbox.isChecked()).toBe(false);
    expect(await users.selectionText()).toBeNull();

    // The header checkbox still leaves third-party users out.
    await users.pageCheckbox.click();
    await expect.poll(() => users.selectionText()).toMatch(/selected \(all on this page\)$/);
    expect(await checkbox.isChecked()).toBe(false);
    expect(await checkedNames(users)).not.toContain(external.name);
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
