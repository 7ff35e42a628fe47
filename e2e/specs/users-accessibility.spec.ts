import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { ACME_TOTAL, ACME_USER, EMPTY_LIST, JSON_API, USERS_API } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Over 300 lines: the keyboard, the roles and axe walk the same page states, opened by the same helpers.

// The page is usable by keyboard and by assistive technology: reachable and operable controls with a
// visible focus, named roles, announced results, and no axe-core violation in any state.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

interface FocusStop {
  name: string;
  /** How the focus shows: an outline, a shadow, a thicker border; null when it does not show. */
  indicator: string | null;
}

/** The element that has the focus (inside shadow roots too), its name and how its focus shows. */
const focusStop = (users: UsersPage): Promise<FocusStop> =>
  users.page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element || element === document.body) return { name: '(body)', indicator: null };
    const labelledBy = element.getAttribute('aria-labelledby');
    const name =
      element.getAttribute('aria-label') ??
      (labelledBy
        ? labelledBy
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : null) ??
      element.textContent?.trim() ??
      '';
    const shows = (candidate: Element | null | undefined): string | null => {
      if (!candidate) return null;
      const style = getComputedStyle(candidate);
      if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1) return 'outline';
      if (style.boxShadow !== 'none') return 'shadow';
      if (
        candidate.classList.contains('MuiOutlinedInput-notchedOutline') &&
        Number.parseFloat(style.borderTopWidth) >= 2
      )
        return 'border';
      return null;
    };
    const indicator =
      shows(element) ??
      shows(element.closest('.MuiButtonBase-root')) ??
      shows(element.closest('.MuiOutlinedInput-root')?.querySelector('.MuiOutlinedInput-notchedOutline'));
    return { name: name.replace(/\s+/g, ' ').trim(), indicator };
  });

/** True when `expected` appears in `actual` in the same order (other items may come between). */
function inOrder(actual: string[], expected: string[]): boolean {
  let at = 0;
  for (const name of actual) if (name === expected[at]) at++;
  return at === expected.length;
}

const focusedName = async (users: UsersPage) => (await focusStop(users)).name;

describe('keyboard', () => {
  it('reaches every control with Tab, in reading order, and shows where the focus is', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const [firstRow] = await users.rowNames();
    const stops: FocusStop[] = [];
    for (let i = 0; i < 90; i++) {
      await users.page.keyboard.press('Tab');
      const stop = await focusStop(users);
      stops.push(stop);
      if (stop.name === 'Go to next page') break;
    }
    const names = stops.map((stop) => stop.name);
    expect(
      inOrder(names, [
        'Back to the launchpad',
        'Home',
        'Search name or email',
        'Actions',
        'Filter',
        'Select all users on this page',
        'User',
        'More about Data source',
        'More about Status',
        'More about User type',
        `Select ${firstRow}`,
        'Rows per page:',
        'Go to page 2',
        'Go to next page',
      ]),
      names.join(' → '),
    ).toBe(true);
    // Every row's checkbox is a stop, a third-party user's too: it cannot be ticked, but its
    // tooltip says why, and a keyboard user must be able to reach it.
    const rows = await users.readRows();
    expect(rows.some((row) => row.checkbox.disabled)).toBe(true);
    for (const row of rows) expect(names.includes(`Select ${row.name}`), row.name).toBe(true);
    // The focus shows at every stop.
    expect(stops.filter((stop) => stop.indicator === null)).toEqual([]);
  });

  it('sorts, selects and pages with the keyboard', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);

    await users.sortButton.focus();
    await users.page.keyboard.press('Enter');
    await expect.poll(() => users.query()).toEqual({ sort: 'name' });
    await users.waitForList(1, 25, ACME_TOTAL);

    const [first] = (await users.readRows()).filter((row) => !row.checkbox.disabled);
    await users.rowCheckbox(first?.name ?? '').focus();
    await users.page.keyboard.press('Space');
    await expect.poll(() => users.selectionText()).toBe('1 selected');
    await users.page.keyboard.press('Space');
    await expect.poll(() => users.selectionText()).toBeNull();

    await users.pagination.getByRole('button', { name: 'Go to page 2' }).focus();
    await users.page.keyboard.press('Enter');
    await expect.poll(() => users.query()).toEqual({ sort: 'name', page: '2' });
    await users.waitForList(26, 50, ACME_TOTAL);

    await users.rowsPerPage.focus();
    await users.page.keyboard.press('Enter');
    await users.page.getByRole('listbox').waitFor();
    await users.page.keyboard.press('ArrowDown');
    await users.page.keyboard.press('Enter');
    await expect.poll(() => users.query()).toEqual({ sort: 'name', pageSize: '50' });
    await users.page.getByRole('listbox').waitFor({ state: 'detached' });
    expect(await focusedName(users)).toBe('Rows per page:');
  });

  it('opens the Filters dialog, chooses a filter and closes it with the keyboard, the focus going in and back', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.filterButton.focus();
    await users.page.keyboard.press('Enter');
    await users.filtersDialog.waitFor();
    // The focus is in the dialog.
    expect(await users.filtersDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);

    await users.page.keyboard.press('Tab');
    expect(await focusedName(users)).toContain('Status');
    await users.page.keyboard.press('ArrowDown');
    const listbox = users.page.getByRole('listbox', { name: 'Status' });
    await listbox.waitFor();
    await users.page.keyboard.press('ArrowDown');
    await users.page.keyboard.press('Enter');
    await expect.poll(() => users.query()).toEqual({ status: 'active' });
    await listbox.waitFor({ state: 'detached' });
    expect(await focusedName(users)).toContain('Status');

    // Clear all with the keyboard keeps the focus in the dialog.
    const clearAll = users.filtersDialog.getByRole('button', { name: 'Clear all' });
    await clearAll.focus();
    await users.page.keyboard.press('Enter');
    await expect.poll(() => users.query()).toEqual({});
    expect(await users.filtersDialog.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);

    await users.page.keyboard.press('Escape');
    await users.filtersDialog.waitFor({ state: 'hidden' });
    expect(await focusedName(users)).toBe('Filter');
  });

  it('opens the Actions menu with the keyboard, moves with the arrows and closes it back to its button', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.actionsButton.focus();
    await users.page.keyboard.press('Enter');
    const menu = users.page.getByRole('menu', { name: 'Actions' });
    await menu.waitFor();
    await expect.poll(() => focusedName(users)).toBe('Change user type');
    await users.page.keyboard.press('ArrowDown');
    expect(await focusedName(users)).toBe('Disable users');
    await users.page.keyboard.press('ArrowUp');
    await users.page.keyboard.press('ArrowUp');
    expect(await focusedName(users)).toBe('Remove users');
    await users.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await focusedName(users)).toBe('Actions');

    await users.page.keyboard.press('Enter');
    await menu.waitFor();
    await users.page.keyboard.press('Enter');
    await users.page.getByRole('alert').filter({ hasText: 'Select users before making any actions.' }).waitFor();
  });

  it('shows a column explanation when its info button gets the keyboard focus', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.sortButton.focus();
    for (let i = 0; i < 3 && (await focusedName(users)) !== 'More about Status'; i++) {
      await users.page.keyboard.press('Tab');
    }
    expect(await focusedName(users)).toBe('More about Status');
    // The Data source's explanation, passed on the way, may still be fading out beside it.
    const tooltip = users.page.getByRole('tooltip').filter({ hasText: 'Pending' });
    await tooltip.waitFor();
    await users.page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });
  });
});

describe('roles, names and announcements', () => {
  it('names its landmarks, table, menus, dialog, alerts and selection banner', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const page = users.page;
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('search').getByRole('searchbox', { name: 'Search name or email' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(1);
    expect(await users.table.count()).toBe(1);
    expect(await users.table.getByRole('columnheader').count()).toBe(5);
    expect(await users.table.getByRole('rowheader').count()).toBe(25);

    await users.sortButton.click();
    await expect.poll(() => users.userColumnHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(await users.sortButton.textContent()).toContain('sorted A to Z');

    await users.actionsButton.click();
    const menu = page.getByRole('menu', { name: 'Actions' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').count()).toBe(4);
    // While it is open the rest of the page is hidden from assistive technology: found by CSS here.
    expect(
      await page.locator('main button[aria-haspopup="menu"]', { hasText: 'Actions' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await page.keyboard.press('Escape');

    const dialog = await users.openFilters();
    expect(await dialog.getAttribute('role')).toBe('dialog');
    expect(await dialog.getByRole('combobox', { name: 'Status' }).count()).toBe(1);
    expect(await dialog.getByRole('combobox', { name: 'User type' }).count()).toBe(1);
    expect(await page.locator('main button[aria-haspopup="dialog"]').getAttribute('aria-expanded')).toBe('true');
    await users.closeFilters();

    const [first] = (await users.readRows()).filter((row) => !row.checkbox.disabled);
    await users.rowCheckbox(first?.name ?? '').check();
    const banner = page.getByRole('region', { name: '1 selected' });
    await banner.waitFor();
    expect(await banner.getByRole('status').textContent()).toBe('1 selected');
    expect(await banner.getByRole('button', { name: 'Clear selection' }).count()).toBe(1);
    expect(await banner.getByRole('button', { name: `Select all ${ACME_TOTAL} users` }).count()).toBe(1);

    // With a selection, an action asks first, in a dialog named by its question; Cancel returns to Actions.
    await users.chooseAction('Change user type');
    const question = page.getByRole('dialog', { name: 'Change the user type of 1 user?' });
    expect(await question.getByRole('radiogroup', { name: 'New user type' }).count()).toBe(1);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Actions');
    await users.clearSelectionButton.click();
    await users.chooseAction('Change user type');
    expect(await page.getByRole('alert').textContent()).toBe('Select users before making any actions.');
  });

  it('announces what the list shows after each change in a polite live region', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.announcement.getAttribute('role')).toBe('status');
    expect(await users.announcement.textContent()).toBe(`Showing 1–25 of ${ACME_TOTAL} users`);

    await users.goToPage(2);
    await expect.poll(() => users.announcement.textContent()).toBe(`Showing 26–50 of ${ACME_TOTAL} users`);

    await users.search('rossi');
    const found = (await users.api({ 'filter[query]': 'rossi' })).meta.total_count;
    expect(found).toBeGreaterThan(1);
    await expect
      .poll(() => users.announcement.textContent())
      .toBe(`Showing 1–${Math.min(25, found)} of ${found} users`);

    await users.search('zzqx');
    await expect.poll(() => users.announcement.textContent()).toBe('No results found');
  });
});

describe('axe-core finds no violation', () => {
  it('in the loaded page, with the rows-per-page list open, and with the no-selection alert', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await axeViolations(users.page), 'loaded').toEqual([]);

    await users.rowsPerPage.click();
    const listbox = users.page.getByRole('listbox');
    await listbox.waitFor();
    expect(await axeViolations(users.page), 'rows-per-page list').toEqual([]);
    await users.page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'detached' });

    await users.chooseAction('Remove users');
    await users.page.getByRole('alert').waitFor();
    // The Actions menu's closing transition leaves its portal outside the landmarks for a moment.
    await users.page.getByRole('menu').waitFor({ state: 'detached' });
    expect(await axeViolations(users.page), 'no-selection alert').toEqual([]);
  });

  it('with the Filters dialog open and a filter chosen', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.openFilters();
    await users.chooseFilter('Status', 'Pending');
    await expect.poll(() => users.busy()).toBe('false');
    expect(await axeViolations(users.page)).toEqual([]);
  });

  it('with a selection and its banner, and with the Actions menu open', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.pageCheckbox.check();
    await users.selectionBanner.waitFor();
    expect(await axeViolations(users.page), 'selection').toEqual([]);
    await users.actionsButton.click();
    await users.page.getByRole('menu', { name: 'Actions' }).waitFor();
    expect(await axeViolations(users.page), 'Actions menu').toEqual([]);
  });

  it('in the empty (the list answer is intercepted), no-results and error (a 500, intercepted) states', async () => {
    let answer: { status: number; body: string } | undefined = { status: 200, body: JSON.stringify(EMPTY_LIST) };
    const users = await suite.open({
      setup: async ({ page }) => {
        await page.route(USERS_API, (route) =>
          answer ? route.fulfill({ ...answer, contentType: JSON_API }) : route.fallback(),
        );
      },
    });
    await users.page.getByRole('heading', { name: 'No results found' }).waitFor();
    expect(await axeViolations(users.page), 'empty').toEqual([]);

    answer = undefined;
    await users.search('zzqx');
    await users.page.getByRole('alert').filter({ hasText: 'zzqx' }).waitFor();
    expect(await axeViolations(users.page), 'no results').toEqual([]);

    answer = { status: 500, body: '{}' };
    await users.page.reload();
    await users.page.getByRole('alert').filter({ hasText: 'There was an error loading the users' }).waitFor();
    expect(await axeViolations(users.page), 'error').toEqual([]);
  });

  it('in the unauthorized state', async () => {
    const users = await suite.open({ as: ACME_USER, session: 'own' });
    await users.page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
  });
});
