import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, type ApiUser, expectedRow } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';

// SPEC.md §2 table columns, §3 avatar rule, §4 per-row links: the table shows what the database holds.
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

describe('the users table', () => {
  it('has the columns checkbox, User, Data source, Status and User type; only User sorts', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const headers = users.table.getByRole('columnheader');
    expect(await headers.allTextContents()).toEqual(['', 'User', 'Data source', 'Status', 'User type']);
    expect(await headers.nth(0).getByRole('checkbox', { name: 'Select all users on this page' }).count()).toBe(1);
    expect(await headers.nth(1).getByRole('button', { name: 'User' }).count()).toBe(1);
    for (const index of [2, 3, 4]) {
      expect(
        await headers
          .nth(index)
          .getByRole('button', { name: /^More about / })
          .count(),
      ).toBe(1);
    }
    expect(await users.rows.count()).toBe(25);
  });

  it('shows every user of a page of 100 as the server holds them: avatar, name, e-mail, data source, status, type', async () => {
    const users = await suite.open({ path: '/?pageSize=100' });
    await users.waitForList(1, 100, ACME_TOTAL);
    const expected = (await users.api({ 'page[size]': 100 })).data;
    const shown = await users.readRows();
    expect(shown.map(({ checkbox: _, ...row }) => row)).toEqual(expected.map(expectedRow));
    // Third-party users have a disabled checkbox; everyone else can be ticked.
    expect(shown.map((row) => row.checkbox.disabled)).toEqual(expected.map((user) => user.attributes.is_external));
    // The page held both kinds of data source and every status, so the comparison covered them.
    expect(new Set(shown.map((row) => row.dataSource))).toEqual(new Set(['Platform', 'Third party']));
    expect(new Set(shown.map((row) => row.status))).toEqual(new Set(['Active', 'Pending', 'Inactive', 'Disabled']));
  });

  it('draws the avatar from the initials, else from the first letters of first and last name, else nothing', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    // Find one user of each kind in the database.
    const everyone: ApiUser[] = [];
    for (let page = 1; page <= Math.ceil(ACME_TOTAL / 100); page++) {
      everyone.push(...(await users.api({ 'page[size]': 100, 'page[number]': page })).data);
    }
    const blank = (text: string | null) => !text?.trim();
    const withInitials = everyone.find((u) => !blank(u.attributes.initials));
    const fromNames = everyone.find(
      (u) => blank(u.attributes.initials) && !blank(u.attributes.first_name) && !blank(u.attributes.last_name),
    );
    const nothing = everyone.find(
      (u) => blank(u.attributes.initials) && blank(u.attributes.first_name) && blank(u.attributes.last_name),
    );
    if (!withInitials || !fromNames || !nothing) throw new Error('the demo data lacks a kind of avatar');
    // Initials are stored in upper case for the demo; the fallback upper-cases lower-case names too.
    const cases: [ApiUser, string][] = [
      [withInitials, (withInitials.attributes.initials ?? '').trim()],
      [
        fromNames,
        `${Array.from(fromNames.attributes.first_name ?? '')[0]}${Array.from(fromNames.attributes.last_name ?? '')[0]}`.toUpperCase(),
      ],
      [nothing, ''],
    ];

    for (const [user, avatar] of cases) {
      await users.search(user.attributes.email);
      await users.waitForList(1, 1, 1);
      const [row] = await users.readRows();
      expect(row?.email).toBe(user.attributes.email);
      expect(row?.avatar).toBe(avatar);
      // Text only: no generic picture stands in for missing initials.
      expect(await users.rows.first().locator('.UsersTable-avatar svg').count()).toBe(0);
    }
  });

  it('explains Data source, Status and User type in info tooltips on their headers', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const mentions: Record<string, string[]> = {
      'Data source': ['Platform', 'Third party'],
      Status: ['Active', 'Pending', 'Inactive', 'Disabled'],
      'User type': ['System Admin', 'User'],
    };
    for (const [column, words] of Object.entries(mentions)) {
      const info = users.page.getByRole('button', { name: `More about ${column}` });
      await info.hover();
      const tooltip = users.page.getByRole('tooltip');
      await tooltip.waitFor();
      const text = (await tooltip.textContent()) ?? '';
      for (const word of words) expect(text, column).toContain(word);
      // The tooltip describes its button.
      const describedBy = await info.getAttribute('aria-describedby');
      expect(describedBy).toBe(await tooltip.getAttribute('id'));
      await users.page.mouse.move(0, 0);
      await tooltip.waitFor({ state: 'detached' });
    }
  });
});
