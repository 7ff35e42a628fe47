import path from 'node:path';
import type { Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { ARTIFACTS, screenshot } from '../support/browser.ts';
import { changeDatabase, seedLargeOrganization } from '../support/database.ts';
import { USERS_API } from '../support/demo-data.ts';
import { type StorageState, signIn } from '../support/seeded-server.ts';
import { Suite } from '../support/suite.ts';
import { UsersPage } from '../support/users-page.ts';

// A search with more matches than the server counts (SEARCH_WINDOW, 1,000): the footer says
// "more than 1,000" and pages through the window only; "Select all matching users" asks the
// server for the exact count. An organisation of 1,500 generated users, all under
// one e-mail domain, and its admin: a search for the domain matches every one of them.
const SEEDED = 1_500;
const ORG = { name: 'Capped', slug: 'capped' };
const ADMIN = { email: `admin@${ORG.slug}.example`, password: 'capped-admin' };
const DOMAIN = `${ORG.slug}.example`;
/** The generated users and the admin, all at the domain. */
const MATCHES = SEEDED + 1;

const suite = new Suite();
let adminState: StorageState;
const opened: UsersPage[] = [];
beforeAll(async () => {
  await suite.start({
    prepare: (dataDir) =>
      changeDatabase(dataDir, async (_db, database) => {
        await seedLargeOrganization(database, {
          ...ORG,
          users: SEEDED,
          seed: 7,
          adminFirstName: 'Cap',
          adminPassword: ADMIN.password,
        });
      }),
  });
  adminState = await signIn(suite.browser, suite.baseUrl, ADMIN);
});
afterEach(async () => {
  for (const users of opened.splice(0)) await users.close();
});
afterAll(() => suite.stop());

/** The Users page as the large organisation's admin. */
async function openAsAdmin(pathAndQuery = '/'): Promise<UsersPage> {
  const users = await UsersPage.open(suite.browser, suite.baseUrl, { state: adminState, path: pathAndQuery });
  opened.push(users);
  return users;
}

/** Waits until the list has settled on the footer's label. */
async function settledOn(users: UsersPage, label: string): Promise<void> {
  await expect
    .poll(async () => `busy=${await users.busy()} ${await users.displayedRows.textContent()}`, { timeout: 15_000 })
    .toBe(`busy=false ${label}`);
}

const isCount = (url: URL) => USERS_API.test(url.href) && url.searchParams.get('page[total]') === 'exact';

describe('a search past the 1,000-user window', () => {
  it('reads "more than 1,000" and offers no page beyond the window', async () => {
    const users = await openAsAdmin();
    await settledOn(users, `1–25 of ${MATCHES.toLocaleString('en')}`);
    await users.search(DOMAIN);
    await settledOn(users, '1–25 of more than 1,000');
    expect(users.query()).toEqual({ search: DOMAIN });
    await expect.poll(() => users.announcement.textContent()).toBe('Showing 1–25 of more than 1,000 users');

    // The server says "at least 1,000" and gives no last page.
    const list = await users.api({ 'filter[query]': DOMAIN });
    expect(list.meta).toEqual({ total_count: 1_000, total_count_relation: 'gte' });

    expect((await users.pageButtons()).at(-1)).toBe('40');
    expect(await users.pagination.getByRole('button', { name: 'Go to page 41' }).count()).toBe(0);
    expect(await axeViolations(users.page), 'capped label').toEqual([]);
    await users.page.locator('main .MuiTablePagination-root').screenshot({
      path: path.join(ARTIFACTS, 'users-capped-footer.png'),
    });

    await users.goToPage(40);
    await settledOn(users, '976–1,000 of more than 1,000');
    expect(await users.readRows()).toHaveLength(25);
    expect(await users.pagination.getByRole('button', { name: 'Go to next page' }).isDisabled()).toBe(true);
  });

  it('takes a link to a page beyond the window to the window’s last page', async () => {
    const users = await openAsAdmin(`/?search=${DOMAIN}&page=41`);
    await settledOn(users, '976–1,000 of more than 1,000');
    expect(users.query()).toEqual({ search: DOMAIN, page: '40' });
    expect(await users.page.getByRole('alert').count()).toBe(0);
  });

  it('selects all matching users, says it is counting, then says how many there are', async () => {
    const users = await openAsAdmin(`/?search=${DOMAIN}`);
    await settledOn(users, '1–25 of more than 1,000');
    // The count's answer is held, to see the banner while the server counts.
    const held: Route[] = [];
    await users.page.route(isCount, (route) => void held.push(route));

    const selectable = (await users.readRows()).filter((row) => !row.checkbox.disabled).length;
    await users.pageCheckbox.click();
    const banner = users.page.locator('main [role="region"]').filter({ has: users.page.getByRole('status') });
    await expect.poll(() => banner.getByRole('status').textContent()).toBe(`${selectable} selected (all on this page)`);
    await users.page.getByRole('button', { name: 'Select all matching users' }).click();

    await expect.poll(() => held.length).toBe(1);
    await expect.poll(() => banner.getByRole('status').textContent()).toBe('Counting matching users…');
    expect(await banner.getByRole('progressbar', { name: 'Counting matching users…' }).isVisible()).toBe(true);
    expect(Object.fromEntries(new URL(held[0]?.request().url() ?? '').searchParams)).toEqual({
      'page[size]': '1',
      'filter[query]': DOMAIN,
      'page[total]': 'exact',
    });
    expect(await axeViolations(users.page), 'counting').toEqual([]);
    await banner.screenshot({ path: path.join(ARTIFACTS, 'users-capped-counting.png') });

    // The real server counts every match.
    for (const route of held.splice(0)) await route.continue();
    const exact = `All ${MATCHES.toLocaleString('en')} users selected`;
    await expect.poll(() => banner.getByRole('status').textContent()).toBe(exact);
    expect(await banner.getByRole('progressbar').count()).toBe(0);
    const counted = await users.api({ 'filter[query]': DOMAIN, 'page[total]': 'exact' });
    expect(counted.meta).toEqual({ total_count: MATCHES, total_count_relation: 'eq' });
    // The footer still pages through the window.
    expect(await users.displayedRows.textContent()).toBe('1–25 of more than 1,000');
    expect(await axeViolations(users.page), 'counted').toEqual([]);
    await banner.screenshot({ path: path.join(ARTIFACTS, 'users-capped-selected.png') });
    await screenshot(users.page, 'users-capped-page');
  });
});
