import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signInAs } from '../support/browser.ts';
import { type RunningServer, startServer } from '../support/server.ts';

describe('from signed out to the Users page', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('leads a signed-out visitor to the sign-in page and back to the Acme users', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/?sort=name`);
    await signInAs(page, 'admin@acme.example', 'admin');

    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe('?sort=name');
    const rows = page.getByRole('table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    await page.locator('.MuiTablePagination-displayedRows', { hasText: '1–25 of 423' }).waitFor();
    for (const column of ['User', 'Data source', 'Status', 'User type']) {
      await page.getByRole('columnheader', { name: column }).first().waitFor();
    }
    await screenshot(page, 'users-page-xl');
    await context.close();
  });

  it('redirects any other path to the root', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/auth/start`);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('signs out at the server and at the identity provider: /logout ends on the sign-in form', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    const visited: string[] = [];
    const silentResults: string[] = [];
    page.on('framenavigated', (frame) => {
      const url = new URL(frame.url());
      if (frame === page.mainFrame()) visited.push(url.pathname);
      else if (url.pathname === '/oidc/callback') silentResults.push(url.search);
    });
    // The page's own route (SPEC.md §2), as the global navigator's Sign out link opens it.
    await page.goto(`${server.baseUrl}/logout`);
    // No question from the provider: the sign-out lands on the page root, whose silent sign-in
    // now fails (login_required), so the page sends the browser to the sign-in form.
    await page.waitForURL(/\/interaction\//);
    await page.getByLabel('Password').waitFor();
    expect(await page.getByText('Do you want to sign out?').count()).toBe(0);
    expect(visited).toContain('/');
    // The page's hidden frame tried the silent sign-in, and the provider answered login_required.
    expect(silentResults).toContain('?status=error&error=login_required');
    expect(silentResults).not.toContain('?status=success');
    expect((await context.request.get(`${server.baseUrl}/apis/oidc/userinfo`)).status()).toBe(400);
    await screenshot(page, 'signed-out-sign-in-form');

    // Signing in on that form brings the Users page back.
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await context.close();
  });

  it('keeps the data and the sign-in when the server starts again on the same folder', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.baseUrl}/`);
    await signInAs(page, 'admin@acme.example', 'admin');
    await page.getByText('1–25 of 423', { exact: true }).waitFor();

    const dataDir = server.dataDir;
    await server.stop({ keepData: true });
    const again = await startServer({ DATA_DIR: dataDir });
    try {
      expect(again.output()).not.toContain('Seeded the demo');
      // The session lives in the database: the same cookie still works on the new process.
      const cookies = await context.cookies();
      const response = await fetch(`${again.baseUrl}/apis/oidc/userinfo`, {
        headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
      });
      expect(response.status).toBe(200);
    } finally {
      await again.stop();
      await context.close();
    }
  });
});
