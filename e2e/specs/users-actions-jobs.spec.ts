import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { screenshot } from '../support/browser.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// An action over every matching user: a job at the server, its progress with Cancel, then its
// result. One user per batch, so that a job over a few hundred users lasts long enough to watch.
const suite = new Suite();
beforeAll(() => suite.start({ env: { JOB_BATCH_SIZE: '1' } }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** Selects every user the list at `path` matches; answers how many. */
async function selectEveryMatch(users: UsersPage): Promise<number> {
  await users.pageCheckbox.waitFor();
  await users.pageCheckbox.check();
  const link = users.page.getByRole('button', { name: /^Select all [\d,]+ users$/ });
  const total = Number((await link.innerText()).replace(/\D/g, ''));
  await link.click();
  await expect.poll(() => users.selectionText()).toMatch(/^All [\d,]+ users selected$/);
  return total;
}

describe('an action over every matching user', () => {
  it('shows the job’s progress, and Cancel stops it with what was done so far', async () => {
    const users = await suite.open({ path: '/?isSystemAdmin=false' });
    const total = await selectEveryMatch(users);
    await users.chooseAction('Change user type');
    const question = users.page.getByRole('dialog', {
      name: `Change the user type of all ${total.toLocaleString('en')} matching users?`,
    });
    await question.getByRole('button', { name: 'Change user type' }).click();

    const progress = users.page.getByRole('dialog', { name: 'Change user type' });
    await progress.getByText(/^Changing [\d,]+ of [\d,]+ users…$/).waitFor();
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'job-progress');
    await progress.getByRole('button', { name: 'Cancel' }).click();

    await progress
      .getByText('Cancelled: the users not reached yet were left as they were.')
      .waitFor({ timeout: 20_000 });
    const done = Number(
      /User type changed\s+([\d,]+)/.exec(await progress.getByRole('status').innerText())?.[1]?.replace(/,/g, ''),
    );
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(total);
    expect(await axeViolations(users.page)).toEqual([]);
    await screenshot(users.page, 'job-cancelled');
    await progress.getByRole('button', { name: 'Close' }).click();
    await progress.waitFor({ state: 'detached' });
    // The list is read again: the users changed are no longer Users.
    await expect.poll(() => users.displayedRows.textContent()).toContain(`of ${(total - done).toLocaleString('en')}`);
  });

  it('runs to its end, says what it did and why it skipped, and the list shows it', async () => {
    const users = await suite.open({ path: '/?status=inactive' });
    const total = await selectEveryMatch(users);
    await users.chooseAction('Disable users');
    const question = users.page.getByRole('dialog', { name: `Disable all ${total} matching users?` });
    await question.getByRole('button', { name: 'Disable', exact: true }).click();
    const result = users.page.getByRole('dialog', { name: 'Disable users' });
    await result.getByRole('button', { name: 'Close' }).waitFor({ timeout: 60_000 });
    const text = await result.getByRole('status').innerText();
    expect(text).toMatch(/Users disabled\s+\d+/);
    // The list's filter matches third-party users too, which the page cannot select: the job skips them.
    expect(text).toContain('Third-party users are managed by their identity provider, not here.');
    await screenshot(users.page, 'job-done');
    await result.getByRole('button', { name: 'Close' }).click();
    // No inactive platform user is left: only third-party ones, which their provider manages.
    await expect.poll(async () => (await users.readRows()).every((row) => row.dataSource === 'Third party')).toBe(true);
  });
});
