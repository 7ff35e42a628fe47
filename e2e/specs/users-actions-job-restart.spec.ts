import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server.ts';
import { Suite } from '../support/suite.ts';

// A job over every match outlives a restart of the server: the page's progress waits through it and
// goes on, and the job resumes where it stopped. One user per batch, so that it is still running;
// a short lease, so that the new process takes the job over soon.
const ENV = { JOB_BATCH_SIZE: '1', JOB_LEASE_SECONDS: '2' };
const suite = new Suite();
let restarted: RunningServer | undefined;
beforeAll(() => suite.start({ env: ENV }));
afterEach(() => suite.closePages());
afterAll(async () => {
  await suite.browser?.close();
  await restarted?.stop();
  if (restarted) rmSync(restarted.dataDir, { recursive: true, force: true });
  else await suite.server?.stop();
});

const processed = (text: string | null) =>
  Number(/^Changing ([\d,]+) of/.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? 0);

describe('a job over every match', () => {
  it('goes on after a restart of the server in the middle, and the page shows its end', async () => {
    const users = await suite.open({ path: '/?isSystemAdmin=false' });
    await users.pageCheckbox.waitFor();
    await users.pageCheckbox.check();
    const selectAll = users.page.getByRole('button', { name: /^Select all [\d,]+ users$/ });
    const total = Number((await selectAll.innerText()).replace(/\D/g, ''));
    await selectAll.click();
    await users.chooseAction('Change user type');
    await users.page
      .getByRole('dialog', { name: `Change the user type of all ${total} matching users?` })
      .getByRole('button', { name: 'Change user type' })
      .click();
    const progress = users.page.getByRole('dialog', { name: 'Change user type' });
    const line = progress.getByText(/^Changing [\d,]+ of [\d,]+ users…$/);
    await expect.poll(async () => processed(await line.textContent())).toBeGreaterThan(20);

    // SIGTERM: the batch in flight commits, the worker stops; the same data and port come back.
    await suite.server.stop({ keepData: true });
    const before = processed(await line.textContent());
    expect(before).toBeLessThan(total);
    restarted = await startServer({
      ...ENV,
      DATA_DIR: suite.server.dataDir,
      PORT: new URL(suite.baseUrl).port,
      LOG_LEVEL: 'info',
    });

    const result = progress.getByRole('status');
    await progress.getByRole('button', { name: 'Close' }).waitFor({ timeout: 120_000 });
    // Every matching user changed once: the job resumed after its last committed batch.
    expect(await result.innerText()).toMatch(new RegExp(`User type changed\\s+${total.toLocaleString('en')}\\b`));
    // The new process took the job over part-done, not from the start.
    const claims = (restarted?.output() ?? '')
      .split('\n')
      .filter((entry) => entry.includes('"job claimed"'))
      .map((entry) => (JSON.parse(entry) as { processed: number }).processed);
    expect(claims[0]).toBeGreaterThan(0);
    expect(claims[0]).toBeLessThan(total);
  });
});
