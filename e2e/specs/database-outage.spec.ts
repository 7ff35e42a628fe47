import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types.
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/throwaway-postgres.mjs';
import { launchBrowser } from '../support/browser.ts';
import { ACME_ADMIN, ACME_TOTAL, SESSION_API, USERS_API } from '../support/demo-data.ts';
import { type StorageState, signIn } from '../support/seeded-server.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { UsersPage } from '../support/users-page.ts';

interface ThrowawayPostgres {
  url: string;
  stopServer(mode?: 'fast' | 'immediate'): Promise<void>;
  startServer(): Promise<void>;
  stop(): Promise<void>;
}

const bin: string | undefined = findPostgresBin();
if (!bin) console.log('database-outage.spec.ts skipped: PostgreSQL is not installed (apt-get install postgresql)');

// SPEC.md §8 "users load failure": with the real server on a PostgreSQL that stops, the page shows
// the error alert (the API answers 503), also when reloaded (the session lookup answers 503), and Try again loads the list once PostgreSQL is back.
describe.skipIf(!bin)('the Users page while PostgreSQL is stopped', () => {
  let postgres: ThrowawayPostgres;
  let server: RunningServer;
  let browser: Browser;
  let state: StorageState;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(bin);
    server = await startServer({ DATABASE_URL: postgres.url });
    browser = await launchBrowser();
    state = await signIn(browser, server.baseUrl, ACME_ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await postgres?.stop();
  });

  it('shows the error alert on the 503, and Try again loads the list when PostgreSQL is back', async () => {
    const users = await UsersPage.open(browser, server.baseUrl, { state });
    const statuses: number[] = [];
    users.page.on('response', (response) => {
      if (USERS_API.test(response.url())) statuses.push(response.status());
    });
    await users.waitForList(1, 25, ACME_TOTAL);

    await postgres.stopServer('fast');
    await users.goToPage(2);
    const alert = users.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('There was an error loading the users. Please try again.');
    expect(statuses).toContain(503);
    expect(statuses).not.toContain(500);

    // Reloaded during the outage: the session lookup answers 503 as well, and the page says so.
    const sessionStatuses: number[] = [];
    users.page.on('response', (response) => {
      if (SESSION_API.test(response.url())) sessionStatuses.push(response.status());
    });
    await users.page.reload();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('There was an error loading the users. Please try again.');
    expect(sessionStatuses).toContain(503);

    await postgres.startServer();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(await alert.count()).toBe(0);
    expect(statuses.at(-1)).toBe(200);
    await users.close();
  });
});
