import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, BREAKPOINTS } from '../support/demo-data.ts';
import { SHARED_LINKS } from '../support/shared-server.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// SPEC.md §2 bulk Actions menu, §4 per-row links, §5 the no-selection alert, §9 its 5000 ms.
const suite = new Suite();
const { SUPPORT_URL } = SHARED_LINKS;
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

const ACTIONS = ['Change user type', 'Disable users', 'Enable users', 'Remove users'];
const ALL_ACTIONS = ['Invite pending users', ...ACTIONS];
const NO_SELECTION = 'Select users before making any actions.';

async function firstSelectable(users: UsersPage, status: string) {
  const row = (await users.readRows()).find((r) => !r.checkbox.disabled && r.status === status);
  if (!row) throw new Error(`no selectable ${status} user on this page`);
  return row.name;
}

describe('bulk actions', () => {
  it('with nothing selected, an action only shows "Select users before making any actions." top right, for 5 s', async () => {
    // The page's clock is moved on by hand: the 5 s are counted exactly, without waiting for them.
    const users = await suite.open({ setup: ({ page }) => page.clock.install() });
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.actionNames()).toEqual(ACTIONS);

    const requestsBefore = users.allRequests.length;
    await users.actionsButton.click();
    const remove = users.page.getByRole('menuitem', { name: 'Remove users' });
    await remove.waitFor();
    // From here the page's time moves only when told to: the alert's 5 s start at the click.
    await users.page.clock.pauseAt(Date.now() + 1000);
    await remove.click();
    // The toast appears near the menu the pointer just used; MUI holds a toast open while the pointer
    // rests on it (so that it can be read), so the pointer moves away as a person's hand would.
    await users.page.mouse.move(5, 500);
    const alert = users.page.getByRole('alert').filter({ hasText: NO_SELECTION });
    await alert.waitFor();
    await users.page.clock.runFor(300);
    expect(await alert.textContent()).toBe(NO_SELECTION);
    expect(await alert.getAttribute('class')).toContain('MuiAlert-colorInfo');
    // Top right of the window, once it has grown in: just under the global navigator's bar, so that
    // it does not cover the bar's Sign out.
    // (The bar's height, not its box: the bar scrolls with the page, the toast stays put.)
    const barBottom = await users.page.evaluate(() =>
      Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--global-navigator-height')),
    );
    expect(barBottom).toBe(64);
    await expect
      .poll(async () => {
        const box = await alert.boundingBox();
        return (
          box && {
            right: BREAKPOINTS.xl.width - (box.x + box.width) <= 32,
            top: box.y >= barBottom && box.y <= barBottom + 32,
          }
        );
      })
      .toEqual({ right: true, top: true });

    await users.page.clock.runFor(4600);
    expect(await alert.isVisible(), 'shown at 4.9 s').toBe(true);
    await users.page.clock.runFor(200);
    // Past 5 s it hides itself: time runs on again for its exit, far less than another 4.9 s.
    await users.page.clock.resume();
    await alert.waitFor({ state: 'hidden', timeout: 4000 });
    expect(users.callsSince(requestsBefore)).toEqual([]);
    expect(users.consoleMessages.filter((m) => m.includes('[stub]'))).toEqual([]);
  });

  it('offers "Invite pending users" only while a selected user on the page is pending', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const active = await firstSelectable(users, 'Active');
    const pending = await firstSelectable(users, 'Pending');

    await users.rowCheckbox(active).click();
    expect(await users.actionNames()).toEqual(ACTIONS);
    await users.rowCheckbox(pending).click();
    expect(await users.actionNames()).toEqual(ALL_ACTIONS);
    await users.rowCheckbox(pending).click();
    expect(await users.actionNames()).toEqual(ACTIONS);
  });

  it('with a selection, each action first asks what it will do, and Cancel makes no call', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.rowCheckbox(await firstSelectable(users, 'Pending')).click();
    for (const [label, question] of [
      ['Invite pending users', 'Resend the invitation to 1 pending user?'],
      ['Change user type', 'Change the user type of 1 user?'],
      ['Disable users', 'Disable 1 user?'],
      ['Enable users', 'Enable 1 user?'],
      ['Remove users', 'Remove 1 user?'],
    ] as const) {
      const requestsBefore = users.allRequests.length;
      await users.chooseAction(label);
      const dialog = users.page.getByRole('dialog', { name: question });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(users.callsSince(requestsBefore)).toEqual([]);
    }
    expect(await users.page.getByRole('alert').count()).toBe(0);
    // The selection stays for the next action.
    expect(await users.selectionText()).toBe('1 selected');
  });
});

describe('per-row links', () => {
  it('follow the status (pending: Resend invitation, inactive: Send invitation, disabled: Contact support, active: none)', async () => {
    const users = await suite.open({ path: '/?pageSize=50' });
    await users.waitForList(1, 50, ACME_TOTAL);
    const rows = await users.readRows();
    const linkFor: Record<string, string | null> = {
      Active: null,
      Pending: 'Resend invitation',
      Inactive: 'Send invitation',
      Disabled: 'Contact support',
    };
    for (const row of rows) expect(row.rowAction, `${row.name} (${row.status})`).toBe(linkFor[row.status]);
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(Object.keys(linkFor)));
  });

  it('Contact support opens SUPPORT_URL in a new tab and makes no call', async () => {
    const users = await suite.open({ fresh: true });
    await users.waitForList(1, 25, ACME_TOTAL);
    // The support site is not there: the new tab gets a page of the test's own.
    await users.context.route(`${SUPPORT_URL}**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: 'Support' }),
    );
    const index = (await users.readRows()).findIndex((row) => row.rowAction === 'Contact support');
    const requestsBefore = users.allRequests.length;
    const [tab] = await Promise.all([
      users.context.waitForEvent('page'),
      users.rows.nth(index).getByRole('button', { name: 'Contact support' }).click(),
    ]);
    await tab.waitForLoadState();
    expect(tab.url()).toBe(SUPPORT_URL);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(users.callsSince(requestsBefore)).toEqual([]);
  });
});
