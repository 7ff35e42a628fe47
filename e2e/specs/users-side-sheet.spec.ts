import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { ACME_TOTAL } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// A user's side sheet: a user's name opens a dialog on the right with their details; the
// address carries `user=<id>`, so a link opens it and Back closes it; the list's page and selection
// stay as they were.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** The sheet of the user named `name`. */
const sheetOf = (users: UsersPage, name: string) => users.page.getByRole('dialog', { name });
const nameLink = (users: UsersPage, name: string) =>
  users.page.getByRole('main').getByRole('link', { name, exact: true });
const focusedText = (users: UsersPage) => users.page.evaluate(() => document.activeElement?.textContent ?? null);

/** Page 2 of Acme with one user ticked: what the sheet must leave as it is. */
async function pageTwoWithSelection(users: UsersPage) {
  await users.goToPage(2);
  await users.waitForList(26, 50, ACME_TOTAL);
  const rows = await users.readRows();
  const ticked = rows.find((row) => !row.checkbox.disabled);
  if (!ticked) throw new Error('no selectable user on page 2');
  await users.rowCheckbox(ticked.name).check();
  return { rows, ticked: ticked.name, other: rows.find((row) => row.name !== ticked.name)?.name ?? '' };
}

describe("a user's side sheet", () => {
  it("opens by a click on the name with the user's details, and Escape closes it, focus back on the name", async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const { ticked, other } = await pageTwoWithSelection(users);
    const user = (await users.api({ 'page[number]': 2 })).data.find((u) => u.attributes.name === other);
    if (!user) throw new Error(`${other} is not on page 2 of the API`);

    await nameLink(users, other).click();
    const sheet = sheetOf(users, other);
    await sheet.waitFor();
    expect(users.query()).toEqual({ page: '2', user: user.id });
    const text = await sheet.innerText();
    for (const expected of [
      user.attributes.email,
      'Status',
      'User type',
      'Data source',
      'Last sign-in',
      'Created',
      user.id,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain(user.attributes.is_external ? 'Third party' : 'Platform');
    expect(text).toContain(user.attributes.is_system_admin ? 'System Admin' : 'User');
    // The sheet is 460 px wide on the right.
    const box = await sheet.boundingBox();
    expect(box && Math.round(box.width)).toBe(460);
    expect(box && Math.round(box.x + box.width)).toBe(1440);
    // Focus moved into it.
    expect(await sheet.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await screenshot(users.page, 'users-side-sheet-xl');

    await users.page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    expect(users.query()).toEqual({ page: '2' });
    await expect.poll(() => focusedText(users)).toBe(other);
    expect(await users.rowCheckbox(ticked).isChecked()).toBe(true);
  });

  it('opens by Enter on the name, and Back closes it, page and selection kept', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const { ticked, other } = await pageTwoWithSelection(users);

    await nameLink(users, other).focus();
    await users.page.keyboard.press('Enter');
    const sheet = sheetOf(users, other);
    await sheet.waitFor();
    expect(users.query()).toMatchObject({ page: '2', user: expect.any(String) });

    await users.page.goBack();
    await sheet.waitFor({ state: 'hidden' });
    expect(users.query()).toEqual({ page: '2' });
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(await users.rowCheckbox(ticked).isChecked()).toBe(true);
    await expect.poll(() => focusedText(users)).toBe(other);
  });

  it('opens from a link to it, and says in words when the user is not there', async () => {
    const { data } = await (await suite.open()).api();
    const user = data[3];
    if (!user) throw new Error('Acme has fewer than four users');

    const linked = await suite.open({ path: `/?user=${user.id}` });
    await sheetOf(linked, user.attributes.name).waitFor();
    // The close button closes it, and the list is still there.
    await sheetOf(linked, user.attributes.name).getByRole('button', { name: 'Close' }).click();
    await sheetOf(linked, user.attributes.name).waitFor({ state: 'hidden' });
    expect(linked.query()).toEqual({});
    await linked.waitForList(1, 25, ACME_TOTAL);

    const unknown = await suite.open({ path: '/?user=01900000-0000-7000-8000-00000000dead' });
    await unknown.page
      .getByRole('dialog')
      .getByText('This user is not in your organisation. They may have been removed.')
      .waitFor();
  });

  it('copies the id with its button', async () => {
    const users = await suite.open({ fresh: true });
    await users.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await users.waitForList(1, 25, ACME_TOTAL);
    const user = (await users.api()).data[0];
    if (!user) throw new Error('Acme has no users');
    await nameLink(users, user.attributes.name).click();
    const sheet = sheetOf(users, user.attributes.name);
    await sheet.getByRole('button', { name: 'Copy ID' }).click();
    await sheet.getByRole('status').filter({ hasText: 'ID copied' }).waitFor({ state: 'attached' });
    expect(await users.page.evaluate(() => navigator.clipboard.readText())).toBe(user.id);
  });

  it('has no accessibility violation while open, full width on a narrow screen', async () => {
    const users = await suite.open({ viewport: { width: 400, height: 900 } });
    await users.waitForList(1, 25, ACME_TOTAL);
    const name = (await users.rowNames())[0] ?? '';
    await nameLink(users, name).click();
    const sheet = sheetOf(users, name);
    await sheet.getByText('Last sign-in').waitFor();
    const box = await sheet.boundingBox();
    expect(box && Math.round(box.width)).toBe(400);
    await screenshot(users.page, 'users-side-sheet-sm');
    expect(await axeViolations(users.page)).toEqual([]);
  });
});
