import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { ACME_TOTAL, JSON_API } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// A user's actions in their side sheet, against the server: each asked in a dialog and made with
// the version the sheet read (If-Match), and the user's recent activity.
const suite = new Suite();
beforeAll(() => suite.start());
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** Opens the sheet of the first selectable active User on page 1. */
async function openSheetOfAUser(users: UsersPage, skip = 0) {
  await users.waitForList(1, 25, ACME_TOTAL);
  const row = (await users.readRows()).filter(
    (r) => !r.checkbox.disabled && r.status === 'Active' && r.userType === 'User',
  )[skip];
  if (!row) throw new Error('no active User on page 1');
  await users.page.getByRole('main').getByRole('link', { name: row.name, exact: true }).click();
  const sheet = users.page.getByRole('dialog', { name: row.name });
  await sheet.getByRole('region', { name: 'Actions' }).waitFor();
  return { name: row.name, sheet };
}

describe("a user's sheet", () => {
  it('changes the user type after asking, says so, and shows it in the recent activity', async () => {
    const users = await suite.open();
    const { name, sheet } = await openSheetOfAUser(users);
    await sheet.getByRole('button', { name: 'Change user type' }).click();
    const dialog = users.page.getByRole('dialog', { name: `Change the user type of ${name}?` });
    await dialog.waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'sheet-change-type-question');
    await dialog.getByRole('button', { name: 'Change user type' }).click();
    await sheet.getByText('User type changed.').waitFor();
    expect(await sheet.innerText()).toContain('System Admin');
    const activity = sheet.getByRole('region', { name: 'Recent activity' });
    await expect
      .poll(() => activity.getByRole('listitem').first().textContent())
      .toMatch(/^Ada Admin changed the user type to System Admin · (now|\d+ seconds? ago)$/);
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'sheet-change-type-done');
  });

  it('disables and enables the user, and the list shows it', async () => {
    const users = await suite.open();
    const { name, sheet } = await openSheetOfAUser(users, 1);
    await sheet.getByRole('button', { name: 'Disable user' }).click();
    await users.page
      .getByRole('dialog', { name: `Disable ${name}?` })
      .getByRole('button', { name: 'Disable user' })
      .click();
    await sheet.getByText('User disabled.').waitFor();
    // The same button now enables, and has the focus back.
    const enable = sheet.getByRole('button', { name: 'Enable user' });
    await expect.poll(() => enable.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await sheet.innerText()).toContain('Contact support');
    await enable.click();
    await users.page
      .getByRole('dialog', { name: `Enable ${name}?` })
      .getByRole('button', { name: 'Enable user' })
      .click();
    await sheet.getByText('User enabled.').waitFor();
    await users.page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    expect((await users.readRows()).find((row) => row.name === name)?.status).toBe('Active');
  });

  it('says when the user changed meanwhile (412), and shows them as they are now', async () => {
    const users = await suite.open();
    const { name, sheet } = await openSheetOfAUser(users, 2);
    // Someone else makes them a System Admin after the sheet read them.
    const orgId = await users.orgId();
    const id = new URL(users.page.url()).searchParams.get('user');
    const path = `${users.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users/${id}`;
    const read = await users.page.request.get(path);
    const changed = await users.page.request.patch(path, {
      headers: { 'content-type': JSON_API, 'if-match': read.headers().etag ?? '', origin: users.baseUrl },
      data: { data: { type: 'users', id, attributes: { is_system_admin: true } } },
    });
    expect(changed.status()).toBe(200);

    await sheet.getByRole('button', { name: 'Disable user' }).click();
    await users.page
      .getByRole('dialog', { name: `Disable ${name}?` })
      .getByRole('button', { name: 'Disable user' })
      .click();
    await sheet
      .getByRole('alert')
      .filter({ hasText: 'This user was changed meanwhile. They are now shown as they are: check, then try again.' })
      .waitFor();
    await expect.poll(() => sheet.innerText()).toContain('System Admin');
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'sheet-stale');
  });

  it('removes the user from the organisation after asking, and closes', async () => {
    const users = await suite.open();
    const { name, sheet } = await openSheetOfAUser(users, 3);
    await sheet.getByRole('button', { name: 'Remove from organisation' }).click();
    const dialog = users.page.getByRole('dialog', { name: `Remove ${name} from the organisation?` });
    await screenshot(users.page, 'sheet-remove-question');
    await dialog.getByRole('button', { name: 'Remove from organisation' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await users.waitForList(1, 25, ACME_TOTAL - 1);
    expect(await users.rowNames()).not.toContain(name);
  });
});
