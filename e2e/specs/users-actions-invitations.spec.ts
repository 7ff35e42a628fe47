import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpCatcher } from '../../apps/server/test/support/smtp-catcher.ts';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { ACME_TOTAL } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Invitations from the page, end to end: the server sends its mail to a real SMTP server the test
// starts, and the invitee opens the link from the mail in a browser of their own.
const suite = new Suite();
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
  await suite.start({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterEach(() => suite.closePages());
afterAll(async () => {
  await suite.stop();
  await smtp?.close();
});

async function rowWith(users: UsersPage, link: string, skip = 0) {
  const row = (await users.readRows()).filter((r) => r.rowAction === link && r.dataSource === 'Platform')[skip];
  if (!row) throw new Error(`no platform user with ${link} on this page`);
  return row;
}

describe('invitations from the page', () => {
  it('Send invitation: the invitee chooses a password and signs in, and the admin sees them active', async () => {
    const users = await suite.open({ path: '/?pageSize=50' });
    await users.waitForList(1, 50, ACME_TOTAL);
    const invitee = await rowWith(users, 'Send invitation');
    const index = (await users.readRows()).findIndex((row) => row.name === invitee.name);
    await users.rows.nth(index).getByRole('button', { name: 'Send invitation' }).click();
    await users.page.getByText(`Invitation sent to ${invitee.name}.`).waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'row-invitation-sent');
    await expect.poll(async () => (await users.readRows())[index]?.status).toBe('Pending');

    // The mail goes out through the outbox, retried until the SMTP server takes it.
    await expect.poll(() => smtp.to(invitee.email).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(linkIn(smtp.to(invitee.email).at(-1)));
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByLabel('Confirm password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Accept and sign in' }).click();
      // Signed in: a plain User's session, on the page that says it may not list users.
      await page.getByRole('heading', { name: 'Something went wrong' }).waitFor({ timeout: 30_000 });
      const session = await page.request.get(`${suite.baseUrl}/apis/oidc/userinfo`);
      expect(session.status()).toBe(200);
    } finally {
      await context.close();
    }

    await users.page.reload();
    await expect.poll(async () => (await users.readRows()).find((r) => r.name === invitee.name)?.status).toBe('Active');
  });

  it('Resend invitation twice within a minute: the second says it was too soon, in words', async () => {
    const users = await suite.open();
    await users.waitForList(1, 25, ACME_TOTAL);
    const pending = await rowWith(users, 'Resend invitation');
    const index = (await users.readRows()).findIndex((row) => row.name === pending.name);
    const link = users.rows.nth(index).getByRole('button', { name: 'Resend invitation' });
    await link.click();
    await users.page
      .getByText(`Invitation sent again to ${pending.name}: the link sent before no longer works.`)
      .waitFor();
    await link.click();
    const refused = users.page.getByRole('alert').filter({
      hasText: `The invitation to ${pending.name} was not sent. Invited less than a minute ago: please wait a minute, then try again.`,
    });
    await refused.waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'row-invitation-too-soon');
  });

  it('Invite pending users: asks, sends to the selected pending users, and reports', async () => {
    const users = await suite.open({ path: '/?status=pending' });
    await expect.poll(async () => (await users.readRows()).length).toBeGreaterThan(3);
    // Not the first: the test before resent to it a moment ago.
    const names = (await users.readRows())
      .filter((row) => !row.checkbox.disabled)
      .slice(1, 3)
      .map((row) => row.name);
    for (const name of names) await users.rowCheckbox(name).check();
    await users.chooseAction('Invite pending users');
    const question = users.page.getByRole('dialog', { name: 'Resend the invitation to 2 pending users?' });
    await question.waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'bulk-invite-question');
    await question.getByRole('button', { name: 'Resend invitations' }).click();
    const result = users.page.getByRole('dialog', { name: 'Invite pending users' });
    await expect.poll(() => result.getByRole('status').innerText()).toMatch(/Invitations sent\s+2/);
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'bulk-invite-result');
  });

  it('Invite pending users over every match: a job, whose result says who was skipped and why', async () => {
    const users = await suite.open({ path: '/?status=pending' });
    await users.pageCheckbox.waitFor();
    await users.pageCheckbox.check();
    const selectAll = users.page.getByRole('button', { name: /^Select all [\d,]+ users$/ });
    const total = Number((await selectAll.innerText()).replace(/\D/g, ''));
    await selectAll.click();
    await users.chooseAction('Invite pending users');
    const question = users.page.getByRole('dialog', {
      name: `Resend the invitation to every pending user among all ${total} matching users?`,
    });
    await question.getByRole('button', { name: 'Resend invitations' }).click();
    const result = users.page.getByRole('dialog', { name: 'Invite pending users' });
    await result.getByRole('button', { name: 'Close' }).waitFor({ timeout: 60_000 });
    const text = await result.getByRole('status').innerText();
    expect(text).toMatch(/Invitations sent\s+\d+/);
    // The tests before invited three of them a moment ago; third-party users get no invitation here.
    expect(text).toContain('Invited less than a minute ago: please wait a minute, then try again.');
    expect(text).toContain('Third-party users are managed by their identity provider, not here.');
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'job-invite-result');
  });
});
