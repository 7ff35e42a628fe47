import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { ACME_TOTAL, BREAKPOINTS, type RowText } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Bulk actions end to end against the server: the question, the call by ids, the result with what
// was skipped and why, and the list read again.
const suite = new Suite();
beforeAll(() => suite.start());
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

async function selectable(users: UsersPage, fits: (row: RowText) => boolean, count: number): Promise<string[]> {
  const names = (await users.readRows()).filter((row) => !row.checkbox.disabled && fits(row)).map((row) => row.name);
  if (names.length < count) throw new Error(`only ${names.length} such users on this page`);
  return names.slice(0, count);
}

/** Chooses an action, checks its question, confirms it, and answers the result dialog. */
async function act(users: UsersPage, action: string, question: string, confirm: string, shot?: string) {
  await users.chooseAction(action);
  const dialog = users.page.getByRole('dialog', { name: question });
  await dialog.waitFor();
  expect(await axeViolations(users.page)).toEqual([]);
  if (shot) await screenshot(users.page, `${shot}-question`);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
  const result = users.page.getByRole('dialog', { name: action });
  await result.getByRole('button', { name: 'Close' }).waitFor();
  return result;
}

async function closeResult(users: UsersPage, result: ReturnType<UsersPage['page']['getByRole']>) {
  await result.getByRole('button', { name: 'Close' }).click();
  await result.waitFor({ state: 'detached' });
  expect(await users.page.evaluate(() => document.activeElement?.textContent)).toBe('Actions');
}

const rowOf = async (users: UsersPage, name: string) => (await users.readRows()).find((row) => row.name === name);

describe('bulk actions', () => {
  it('change the user type of the selected users, say what was done, and the list shows it', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const names = await selectable(users, (row) => row.status === 'Active' && row.userType === 'User', 2);
    for (const name of names) await users.rowCheckbox(name).click();

    const result = await act(
      users,
      'Change user type',
      'Change the user type of 2 users?',
      'Change user type',
      'bulk-change-type',
    );
    expect(await result.getByRole('status').innerText()).toMatch(/User type changed\s+2\s+Users left as they were\s+0/);
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'bulk-change-type-result');
    await closeResult(users, result);

    await expect.poll(async () => (await rowOf(users, names[0] ?? ''))?.userType).toBe('System Admin');
    expect((await rowOf(users, names[1] ?? ''))?.userType).toBe('System Admin');
    // The selection has served.
    expect(await users.selectionText()).toBeNull();
  });

  it('disable users, then enable them again, from the keyboard', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const [name = ''] = await selectable(users, (row) => row.status === 'Active' && row.userType === 'User', 1);
    await users.rowCheckbox(name).check();
    await users.chooseActionFromKeyboard('Disable users');
    const dialog = users.page.getByRole('dialog', { name: 'Disable 1 user?' });
    await dialog.waitFor();
    // Tab to the dialog's buttons: Cancel, then Disable.
    await users.page.keyboard.press('Tab');
    await users.page.keyboard.press('Tab');
    expect(await users.page.evaluate(() => document.activeElement?.textContent)).toBe('Disable');
    await users.page.keyboard.press('Enter');
    const result = users.page.getByRole('dialog', { name: 'Disable users' });
    await expect.poll(() => result.getByRole('status').innerText()).toMatch(/Users disabled\s+1/);
    await users.page.keyboard.press('Enter');
    await result.waitFor({ state: 'detached' });
    await expect.poll(async () => (await rowOf(users, name))?.status).toBe('Disabled');
    expect((await rowOf(users, name))?.rowAction).toBe('Contact support');

    await users.rowCheckbox(name).check();
    const enabled = await act(users, 'Enable users', 'Enable 1 user?', 'Enable');
    expect(await enabled.getByRole('status').innerText()).toMatch(/Users enabled\s+1/);
    await closeResult(users, enabled);
    await expect.poll(async () => (await rowOf(users, name))?.status).toBe('Active');
  });

  it('leave the signed-in administrator as they are, and say why', async () => {
    const users = await suite.open({ path: '/?search=admin%40acme.example' });
    await expect.poll(async () => (await users.readRows()).map((row) => row.email)).toContain('admin@acme.example');
    const admin = (await users.readRows()).find((row) => row.email === 'admin@acme.example');
    await users.rowCheckbox(admin?.name ?? '').check();
    const result = await act(users, 'Remove users', 'Remove 1 user?', 'Remove', 'bulk-remove-self');
    const text = await result.getByRole('status').innerText();
    expect(text).toMatch(/Users removed\s+0\s+Users left as they were\s+1/);
    expect(text).toContain('You cannot disable, remove or demote yourself.');
    await screenshot(users.page, 'bulk-remove-self-result');
    await closeResult(users, result);
  });

  it('fit a phone: the question is at most 320 px wide and its buttons reachable', async () => {
    const users = await suite.open({ viewport: BREAKPOINTS.sm });
    await users.waitForList(1, 25, ACME_TOTAL);
    const [name = ''] = await selectable(users, (row) => row.status === 'Active', 1);
    await users.rowCheckbox(name).check();
    await users.chooseAction('Change user type');
    const dialog = users.page.getByRole('dialog', { name: 'Change the user type of 1 user?' });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.width <= 320).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Change user type' }).isVisible()).toBe(true);
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'bulk-change-type-phone');
  });

  it('remove users from the organisation, and the total goes down', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const [name = ''] = await selectable(users, (row) => row.userType === 'User' && row.status !== 'Active', 1);
    await users.rowCheckbox(name).check();
    const result = await act(users, 'Remove users', 'Remove 1 user?', 'Remove');
    expect(await result.getByRole('status').innerText()).toMatch(/Users removed\s+1/);
    await closeResult(users, result);
    await users.waitForList(1, 25, ACME_TOTAL - 1);
    expect(await users.rowNames()).not.toContain(name);
  });
});
