import type { Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACME_TOTAL, ACME_USER, EMPTY_LIST, holdListAnswers, JSON_API, USERS_API } from '../support/demo-data.ts';
import { SHARED_LINKS } from '../support/shared-server.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// SPEC.md §2 "Empty, error and loading states", §8 error catalogue (not found, load failure,
// unauthorized), §2 routes that only show a loading indicator.
const { HOME_URL } = SHARED_LINKS;
const suite = new Suite();
beforeAll(() => suite.start({ shared: true }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

const notFoundText = (search: string) =>
  `No results found. Your search for ${search} did not return any results. Try expanding your search or changing the search filters.`;
/** The page may put quotation marks around the search term. */
const withoutQuotes = (text: string | null) => (text ?? '').replace(/[“”"]/g, '');

describe('loading, empty, not found, error and unauthorized', () => {
  it('while the list loads (a slow answer), a loading overlay covers the table area', async () => {
    let answers: Awaited<ReturnType<typeof holdListAnswers>> | undefined;
    const users = await suite.open({
      setup: async ({ page }) => {
        answers = await holdListAnswers(page);
      },
    });
    await answers?.waitUntilHeld();
    await users.loadingOverlay.waitFor();
    expect(await users.busy()).toBe('true');
    // The overlay is the size of the table area it covers.
    const cover = await users.loadingOverlay.evaluate((progress) => {
      let overlay = progress.parentElement;
      while (overlay && getComputedStyle(overlay).position !== 'absolute') overlay = overlay.parentElement;
      const area = overlay?.parentElement;
      if (!overlay || !area) return null;
      const a = overlay.getBoundingClientRect();
      const b = area.getBoundingClientRect();
      return {
        // Inside the area's 1 px border.
        same: Math.abs(a.x - b.x) <= 1 && Math.abs(a.y - b.y) <= 1 && Math.abs(a.width - b.width) <= 2,
        sameHeight: Math.abs(a.height - b.height) <= 2,
        height: b.height,
        holdsTable: area.querySelector('table') !== null,
        // The area is shorter than the window here: the indicator is in its middle.
        centred:
          Math.abs(
            progress.getBoundingClientRect().y + progress.getBoundingClientRect().height / 2 - (b.y + b.height / 2),
          ) < 4,
      };
    });
    expect(cover).toEqual({
      same: true,
      sameHeight: true,
      height: expect.any(Number),
      holdsTable: true,
      centred: true,
    });
    expect(cover?.height).toBeGreaterThanOrEqual(300);
    expect(await users.announcement.textContent()).toBe('');

    await answers?.release();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await users.loadingOverlay.count()).toBe(0);
  });

  it('an organisation with no users at all shows the "No results found" panel (the list answer is intercepted: every demo organisation has users)', async () => {
    const users = await suite.open({
      setup: async ({ page }) => {
        await page.route(USERS_API, (route) =>
          route.fulfill({ status: 200, contentType: JSON_API, body: JSON.stringify(EMPTY_LIST) }),
        );
      },
    });
    await users.page.getByRole('heading', { name: 'No results found', level: 2 }).waitFor();
    expect(await users.page.locator('main table').count()).toBe(0);
    expect(await users.displayedRows.count()).toBe(0);
    expect(await users.page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => users.announcement.textContent()).toBe('No results found');
    // Search, actions and filter stay.
    expect(await users.searchBox.isVisible()).toBe(true);
    expect(await users.filterButton.isVisible()).toBe(true);
  });

  it('a search that matches nothing shows the not-found alert with the search term', async () => {
    const users = await suite.open({ path: '/?search=zzqx' });
    const alert = users.page.getByRole('alert');
    await alert.waitFor();
    expect(withoutQuotes(await alert.textContent())).toBe(notFoundText('zzqx'));
    expect(await alert.getAttribute('class')).toContain('MuiAlert-colorInfo');
    expect(await users.page.locator('main table').count()).toBe(0);
    expect(await users.page.getByRole('heading', { name: 'No results found' }).count()).toBe(0);
    expect(await users.announcement.textContent()).toBe('No results found');

    // The same with a filter as well, typed in the box this time.
    await users.page.goto(`${suite.baseUrl}/?status=pending`);
    await users.waitForList(1, 25, (await users.api({ 'filter[status]': 'pending' })).meta.total_count);
    await users.search('nobody-here');
    await expect.poll(async () => withoutQuotes(await alert.textContent())).toBe(notFoundText('nobody-here'));
  });

  it('a filter that matches nothing, without a search, shows the not-found alert (the list answer is intercepted)', async () => {
    const users = await suite.open({
      path: '/?status=inactive&isSystemAdmin=true',
      setup: async ({ page }) => {
        await page.route(USERS_API, (route) =>
          route.fulfill({ status: 200, contentType: JSON_API, body: JSON.stringify(EMPTY_LIST) }),
        );
      },
    });
    const alert = users.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /^No results found\. .*Try expanding your search or changing the search filters\.$/,
    );
    expect(await users.page.getByRole('heading', { name: 'No results found' }).count()).toBe(0);
  });

  it('a load failure (the list answer is intercepted with a 500) shows the error alert, and Try again loads the list', async () => {
    let fail = true;
    const users = await suite.open({
      setup: async ({ page }) => {
        await page.route(USERS_API, (route: Route) =>
          fail
            ? route.fulfill({ status: 500, contentType: JSON_API, body: '{"errors":[{"status":"500"}]}' })
            : route.fallback(),
        );
      },
    });
    const alert = users.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('There was an error loading the users. Please try again.');
    expect(await alert.getAttribute('class')).toContain('MuiAlert-colorError');
    expect(users.listRequests).toHaveLength(1);
    expect(await users.page.locator('main table').count()).toBe(0);

    fail = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(await alert.count()).toBe(0);
  });

  it('a plain user (user@acme.example) sees "Something went wrong" with a way home, and no users', async () => {
    const users = await suite.open({ as: ACME_USER, session: 'own' });
    await users.page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    expect(
      await users.page
        .getByText("It looks like there's a problem. Please try again or contact our support team.")
        .count(),
    ).toBe(1);
    const home = users.page.getByRole('link', { name: 'Go to Home' });
    await expect.poll(() => home.getAttribute('href')).toBe(HOME_URL);
    expect(await users.page.locator('main table').count()).toBe(0);
    expect(await users.searchBox.count()).toBe(0);
    expect(await users.heading.isVisible()).toBe(true);
  });
});

describe('routes that only show a loading indicator', () => {
  interface LoaderSnapshot {
    path: string;
    text: string;
    controls: number;
    progressbars: (string | null)[];
  }

  /**
   * Reports what the page's root holds the moment a loading indicator first appears in it. Reported
   * through an exposed function, because these routes leave the page at once.
   */
  async function watchFirstLoader({ page }: UsersPage, snapshots: LoaderSnapshot[]) {
    await page.exposeFunction('reportLoader', (snapshot: LoaderSnapshot) => snapshots.push(snapshot));
    await page.addInitScript(() => {
      let reported = false;
      new MutationObserver(() => {
        const root = document.getElementById('root');
        if (reported || !root?.querySelector('[role="progressbar"]')) return;
        reported = true;
        const report = (window as unknown as { reportLoader: (s: unknown) => void }).reportLoader;
        report({
          path: location.pathname,
          text: root.textContent?.trim() ?? '',
          controls: root.querySelectorAll('a, button, input, [role="button"], table, h1, h2').length,
          progressbars: [...root.querySelectorAll('[role="progressbar"]')].map((e) => e.getAttribute('aria-label')),
        });
      }).observe(document, { childList: true, subtree: true });
    });
  }
  const stubPage = (title: string) => ({ contentType: 'text/html', body: `<title>${title}</title><h1>${title}</h1>` });

  it('oidc/callback, opened on its own, shows only a loading indicator and goes home', async () => {
    const snapshots: LoaderSnapshot[] = [];
    const users = await suite.open({
      as: null,
      path: '/oidc/callback?status=success',
      waitUntil: 'commit',
      setup: async (usersPage) => {
        await watchFirstLoader(usersPage, snapshots);
        // Where it goes next is not under test here.
        await usersPage.page.route(
          (url) => url.pathname === '/',
          (route) => (route.request().isNavigationRequest() ? route.fulfill(stubPage('Home')) : route.fallback()),
        );
      },
    });
    await users.page.waitForURL(`${suite.baseUrl}/`);
    expect(snapshots).toEqual([{ path: '/oidc/callback', text: '', controls: 0, progressbars: ['Signing in…'] }]);
  });

  it('logout shows only a loading indicator, then goes to the server to sign out', async () => {
    const snapshots: LoaderSnapshot[] = [];
    const users = await suite.open({
      path: '/logout',
      waitUntil: 'commit',
      setup: async (usersPage) => {
        await watchFirstLoader(usersPage, snapshots);
        // Answered here, so that the shared session of this file stays signed in.
        await usersPage.page.route('**/auth/logout*', (route) => route.fulfill(stubPage('Signed out')));
      },
    });
    await users.page.waitForURL(/\/auth\/logout/);
    expect(snapshots).toEqual([{ path: '/logout', text: '', controls: 0, progressbars: ['Signing out…'] }]);
  });

  it('login/callback shows only a loading indicator, then the Users page', async () => {
    const snapshots: LoaderSnapshot[] = [];
    const users = await suite.open({
      path: '/login/callback?error=access_denied',
      setup: (usersPage) => watchFirstLoader(usersPage, snapshots),
    });
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(new URL(users.page.url()).pathname).toBe('/');
    expect(snapshots[0]).toEqual({ path: '/login/callback', text: '', controls: 0, progressbars: ['Signing in…'] });
    expect(users.consoleMessages.some((m) => m.includes('access_denied'))).toBe(true);
  });
});
