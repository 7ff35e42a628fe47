import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { parseCsv } from '../support/csv.ts';
import { ACME_TOTAL, BREAKPOINTS, JSON_API } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// The Columns menu, the choice kept on the server for the administrator, and shown from
// the first render on (the server's drawing and the browser's own), never SPEC.md's columns first.
const suite = new Suite();
beforeAll(() => suite.start());
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

type Column = 'data_source' | 'status' | 'user_type' | 'last_sign_in' | 'created';
const SPEC_HEADERS = ['', 'User', 'Data source', 'Status', 'User type'];

/** Saves a choice of columns for the signed-in administrator behind the page's back. */
async function saveColumns(users: UsersPage, columns: Column[]) {
  const orgId = await users.orgId();
  const response = await users.page.request.patch(`${users.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/preferences`, {
    headers: { 'content-type': JSON_API, accept: JSON_API },
    data: { data: { type: 'preferences', attributes: { users_columns: columns } } },
  });
  expect(response.status()).toBe(200);
}

const headers = (page: Page) =>
  page.locator('main table thead th').evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''));

/** Records every set of column headers the page shows, from its first parsed byte on. */
async function recordHeaders(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenHeaders: string[] }).seenHeaders = seen;
    const record = () => {
      const row = document.querySelector('main table thead tr');
      if (!row) return;
      const shown = [...row.children].map((cell) => cell.textContent ?? '').join('|');
      if (seen.at(-1) !== shown) seen.push(shown);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const seenHeaders = (page: Page) => page.evaluate(() => (window as unknown as { seenHeaders: string[] }).seenHeaders);

const columnsButton = (users: UsersPage) => users.page.getByRole('button', { name: 'Columns' });
const columnsMenu = (users: UsersPage) => users.page.getByRole('menu', { name: 'Columns' });
const choice = (users: UsersPage, name: string) => columnsMenu(users).getByRole('menuitemcheckbox', { name });

describe('the Columns menu', () => {
  it('shows SPEC.md’s columns at first, then shows and hides each column as it is chosen, and saves the choice', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await headers(users.page)).toEqual(SPEC_HEADERS);

    await columnsButton(users).click();
    await columnsMenu(users).waitFor();
    const items = await columnsMenu(users)
      .getByRole('menuitemcheckbox')
      .evaluateAll((elements) =>
        elements.map((e) => [e.textContent, e.getAttribute('aria-checked'), e.getAttribute('aria-disabled')]),
      );
    expect(items).toEqual([
      ['User', 'true', 'true'],
      ['Data source', 'true', null],
      ['Status', 'true', null],
      ['User type', 'true', null],
      ['Last sign-in', 'false', null],
      ['Created', 'false', null],
    ]);
    const saved = users.page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().endsWith('/preferences'),
    );
    await choice(users, 'Last sign-in').click();
    await (await saved).finished();
    await choice(users, 'Created').click();
    await choice(users, 'User type').click();
    await expect
      .poll(() => headers(users.page))
      .toEqual(['', 'User', 'Data source', 'Status', 'Last sign-in', 'Created']);
    expect(await choice(users, 'User type').getAttribute('aria-checked')).toBe('false');
    // The menu stays open for the next choice; Escape closes it.
    await screenshot(users.page, 'users-columns-menu-xl');
    await users.page.keyboard.press('Escape');
    await columnsMenu(users).waitFor({ state: 'detached' });

    // Kept on the server: the API answers the choice.
    const orgId = await users.orgId();
    await expect
      .poll(async () => {
        const response = await users.page.request.get(
          `${users.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/preferences`,
        );
        return ((await response.json()) as { data: { attributes: { users_columns: string[] } } }).data.attributes
          .users_columns;
      })
      .toEqual(['data_source', 'status', 'last_sign_in', 'created']);
  });

  it('says the last sign-in in words, with the exact time on hover, or Never, and the date the user was created', async () => {
    const users = await suite.open();
    await saveColumns(users, ['status', 'last_sign_in', 'created']);
    await users.page.reload();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await headers(users.page)).toEqual(['', 'User', 'Status', 'Last sign-in', 'Created']);
    const answer = await users.api();
    const readCells = () =>
      users.rows.evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].slice(-2).map((cell) => cell.textContent ?? '')),
      );
    // The time columns' code may still be on its way: their cells are empty until it comes.
    await expect.poll(async () => (await readCells()).flat().filter((text) => text === '').length).toBe(0);
    const cells = await readCells();
    answer.data.forEach((user, index) => {
      const [lastSignIn = '', created = ''] = cells[index] ?? [];
      const at = user.attributes.last_sign_in_at;
      if (at === null) expect(lastSignIn).toBe('Never');
      else expect(lastSignIn, user.attributes.name).toMatch(/^(now|yesterday|last \w+|\d+ \w+ ago|in 0 seconds), /);
      const date = new Date(user.attributes.created_at);
      expect(created).toBe(date.toLocaleDateString('en', { dateStyle: 'medium', timeZone: 'UTC' }));
    });
    const signedIn = answer.data.findIndex((user) => user.attributes.last_sign_in_at !== null);
    expect(signedIn).toBeGreaterThanOrEqual(0);
    const at = answer.data[signedIn]?.attributes.last_sign_in_at ?? '';
    const time = users.rows.nth(signedIn).locator('time').first();
    expect(await time.getAttribute('datetime')).toBe(at);
    await time.hover();
    const tooltip = users.page.getByRole('tooltip');
    await tooltip.waitFor();
    const exact = new Date(at).toLocaleString('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
    expect(await tooltip.textContent()).toBe(`${exact} UTC`);
    await saveColumns(users, ['data_source', 'status', 'user_type']);
  });

  it('is operated with the keyboard, the focus going into the menu and back to its button', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await columnsButton(users).focus();
    await users.page.keyboard.press('Enter');
    await columnsMenu(users).waitFor();
    const focused = () => users.page.evaluate(() => document.activeElement?.textContent);
    // The User column cannot be hidden: the focus starts on the first that can.
    expect(await focused()).toBe('Data source');
    for (let i = 0; i < 4; i++) await users.page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Created');
    await users.page.keyboard.press('Enter');
    await expect.poll(() => headers(users.page)).toEqual([...SPEC_HEADERS, 'Created']);
    await users.page.keyboard.press('ArrowUp');
    await users.page.keyboard.press(' ');
    await expect.poll(() => headers(users.page)).toEqual([...SPEC_HEADERS, 'Last sign-in', 'Created']);
    await users.page.keyboard.press('Escape');
    await columnsMenu(users).waitFor({ state: 'detached' });
    expect(await users.page.evaluate(() => document.activeElement?.textContent)).toBe('Columns');
    await saveColumns(users, ['data_source', 'status', 'user_type']);
  });

  it('is axe-clean while open', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    await columnsButton(users).click();
    await columnsMenu(users).waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
  });
});

describe('the chosen columns follow the administrator', () => {
  it('to a new browser: the page shows no other columns first', async () => {
    const first = await suite.open();
    await saveColumns(first, ['status', 'last_sign_in']);
    const chosen = ['', 'User', 'Status', 'Last sign-in'];

    // A new browser context, signed in as the same administrator.
    const users = await suite.open({ setup: ({ page }) => recordHeaders(page) });
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await headers(users.page)).toEqual(chosen);
    expect(await seenHeaders(users.page), 'every header the page drew').toEqual([chosen.join('|')]);
    expect(users.pageErrors).toEqual([]);
    // The time columns' code may still be on its way when the first rows show.
    await expect.poll(() => users.rows.first().locator('td').last().textContent()).toMatch(/^(Never|.+, .+ UTC)$/);
    await screenshot(users.page, 'users-chosen-columns-xl');
    await saveColumns(first, ['data_source', 'status', 'user_type']);
  });

  it('keeps every column in the table’s width from lg, and tells them under the user on narrow screens', async () => {
    const first = await suite.open();
    await saveColumns(first, ['data_source', 'status', 'user_type', 'last_sign_in', 'created']);
    for (const [name, viewport] of Object.entries(BREAKPOINTS)) {
      const users = await suite.open({ viewport });
      await users.waitForList(1, 25, ACME_TOTAL);
      const fits = await users.page.evaluate(() => {
        const container = document.querySelector('main .MuiTableContainer-root') as HTMLElement;
        return container.scrollWidth <= container.clientWidth;
      });
      expect(fits, name).toBe(true);
      const narrow = () =>
        users.rows
          .first()
          .locator('.UsersTable-narrowOnly')
          .evaluate((line) => (getComputedStyle(line).display === 'none' ? null : line.textContent));
      // The time columns' code may still be on its way when the first rows show.
      if (name === 'sm' || name === 'md')
        await expect.poll(narrow, { message: name }).toMatch(/(Last sign-in: .+|Never signed in) · Created: /);
      else expect(await narrow(), name).toBeNull();
      await screenshot(users.page, `users-all-columns-${name}`);
    }
    await saveColumns(first, ['data_source', 'status', 'user_type']);
  });

  it('to the export: the CSV has the columns shown', async () => {
    const users = await suite.open();
    await saveColumns(users, ['status', 'last_sign_in']);
    await users.page.reload();
    await users.waitForList(1, 25, ACME_TOTAL);
    const download = users.page.waitForEvent('download');
    await users.page.getByRole('button', { name: 'Export', exact: true }).click();
    const file = readFileSync((await (await download).path()) ?? '', 'utf8');
    const [header, first] = parseCsv(file.replace(/^\uFEFF/, ''));
    expect(header).toEqual(['Name', 'Email', 'Status', 'Last sign-in']);
    expect(first).toHaveLength(4);
    await saveColumns(users, ['data_source', 'status', 'user_type']);
  });
});
