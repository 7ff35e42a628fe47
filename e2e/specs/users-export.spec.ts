import { readFileSync } from 'node:fs';
import type { Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { parseCsv } from '../support/csv.ts';
import { addUsers, changeDatabase, DEMO_ORGS } from '../support/database.ts';
import { ACME_TOTAL } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// CSV export: the Export button writes the view (every page, in its order, the columns
// shown) or the selection, as UTF-8 CSV with a byte order mark, named by the server; the page shows
// its progress, can cancel it, and says when it failed. A user with a formula for a name is added to
// Acme, as the hostile-data spec seeds its users, to check that a spreadsheet would not run it.
const FORMULA_NAME = "=cmd|' /C calc'!A0";
const TOTAL = ACME_TOTAL + 1;
const EXPORT_API = /\/users\/export(\?|$)/;
const HEADER = ['Name', 'Email', 'Data source', 'Status', 'User type'];

const suite = new Suite();
beforeAll(() =>
  suite.start({
    prepare: (dataDir) =>
      changeDatabase(dataDir, (db) =>
        addUsers(db, DEMO_ORGS.acme.id, [{ name: FORMULA_NAME, email: 'formula@acme.example', status: 'active' }]),
      ),
  }),
);
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

const exportButton = (users: UsersPage, name = 'Export') => users.page.getByRole('button', { name, exact: true });

/** Presses Export and reads the file the browser saves: its name, bytes and rows. */
async function exportFile(users: UsersPage, button = 'Export') {
  const download = users.page.waitForEvent('download');
  await exportButton(users, button).click();
  const file = await download;
  const bytes = readFileSync((await file.path()) ?? '');
  const text = bytes.toString('utf8');
  return { name: file.suggestedFilename(), bytes, rows: parseCsv(text.replace(/^\uFEFF/, '')) };
}

/** Holds the export's answer until `release`, so that the page shows it running. */
async function holdExport(users: UsersPage) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await users.page.route(EXPORT_API, async (route: Route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return { release };
}

describe('CSV export', () => {
  it('writes every user of the view, all pages in its order, with a header in the page language and a BOM', async () => {
    const users = await suite.open({ path: '/?sort=-name' });
    await users.waitForList(1, 25, TOTAL);
    const firstPage = (await users.api({ sort: '-name' })).data.map((user) => [
      user.attributes.name,
      user.attributes.email,
    ]);

    const file = await exportFile(users);
    expect(file.name).toMatch(/^users-acme-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.rows[0]).toEqual(HEADER);
    expect(file.rows.length - 1).toBe(TOTAL);
    expect(file.rows.slice(1, 26).map((row) => row.slice(0, 2))).toEqual(firstPage);
    await users.page
      .getByRole('status')
      .filter({ hasText: `Exported ${TOTAL} users to ${file.name}.` })
      .waitFor();
    await screenshot(users.page, 'users-export-done');
  });

  it('neutralises a name a spreadsheet would run as a formula', async () => {
    const users = await suite.open({ path: '/?search=formula%40acme' });
    await users.waitForList(1, 1, 1);
    const file = await exportFile(users);
    expect(file.rows.length).toBe(2);
    const [name, email] = file.rows[1] ?? [];
    expect(email).toBe('formula@acme.example');
    expect(name).toContain(FORMULA_NAME);
    expect(name?.[0]).not.toMatch(/[=+\-@\t\r]/);
  });

  it('exports only the selected users, or every match but the unticked after "Select all"', async () => {
    const users = await suite.open({ path: '/?status=pending' });
    const pending = (await users.api({ 'filter[status]': 'pending' })).meta.total_count;
    await users.waitForList(1, Math.min(25, pending), pending);
    const selectable = (await users.readRows()).filter((row) => !row.checkbox.disabled).slice(0, 2);
    for (const row of selectable) await users.rowCheckbox(row.name).check();

    const some = await exportFile(users, 'Export selected');
    expect(some.rows.slice(1).map((row) => row[0])).toEqual(selectable.map((row) => row.name));

    await users.page.getByRole('button', { name: new RegExp(`Select all ${pending} users`) }).click();
    await users.rowCheckbox(selectable[0]?.name ?? '').uncheck();
    const allBut = await exportFile(users, 'Export selected');
    expect(allBut.rows.length - 1).toBe(pending - 1);
    expect(allBut.rows.map((row) => row[0])).not.toContain(selectable[0]?.name);
  });

  it('shows its progress while it runs, with no accessibility violation, and Cancel stops it', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, TOTAL);
    const held = await holdExport(users);
    const downloads: string[] = [];
    users.page.on('download', (download) => downloads.push(download.suggestedFilename()));

    await exportButton(users).click();
    const progress = users.page.getByRole('group', { name: 'Export progress' });
    await progress.getByRole('progressbar').waitFor();
    await screenshot(users.page, 'users-export-running');
    expect(await axeViolations(users.page)).toEqual([]);

    await progress.getByRole('button', { name: 'Cancel' }).click();
    await users.page.getByText('The export was cancelled.').waitFor();
    held.release();
    await users.page.waitForTimeout(500);
    expect(downloads).toEqual([]);
    // Focus is back on Export, and a new export runs to its end.
    expect(await users.page.evaluate(() => document.activeElement?.textContent)).toBe('Export');
    await users.page.unroute(EXPORT_API);
    expect((await exportFile(users)).rows.length - 1).toBe(TOTAL);
  });

  it('says so in words when it fails', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, TOTAL);
    await users.page.route(EXPORT_API, (route) => route.fulfill({ status: 500, body: '{}' }));
    await exportButton(users).click();
    await users.page.getByRole('alert').filter({ hasText: 'The export failed. Please try again.' }).waitFor();
  });
});
