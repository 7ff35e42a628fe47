import type { Request, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../support/browser.ts';
import { ACME_ADMIN, ACME_TOTAL, JSON_API, SESSION_API, USERS_API } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Over 300 lines: the page's calls, its HTTP client and its cache share one server without the reference scripts.

// SPEC.md §4 "Session", §7 the calls (session lookup, silent sign-in), §8 error catalogue of the
// HTTP client, §9 cache rules (fresh 60 s, no retry, no refetch on focus or reconnect).
const suite = new Suite();
// Without the reference global navigator and monitoring scripts: the navigator looks the session up
// too, and only the page's own calls are under test here.
beforeAll(() => suite.start({ env: { GLOBAL_NAVIGATOR_SCRIPT_URL: '', MONITORING_SCRIPT_URL: '' } }));
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

const ERROR = 'There was an error loading the users. Please try again.';

/** Documents of the page and of the sign-in that tell the story (not the identity provider's own steps). */
const STORY_PAGES = new Set(['/', '/auth/start', '/oidc/callback']);

/** The calls that matter here, in order: session lookups, list calls, and the documents loaded in each frame. */
function recordEvents(users: UsersPage) {
  const events: string[] = [];
  users.page.on('request', (request: Request) => {
    const url = new URL(request.url());
    const where = request.frame() === users.page.mainFrame() ? 'page' : 'frame';
    if (SESSION_API.test(request.url())) events.push('session lookup');
    else if (USERS_API.test(request.url())) events.push('list');
    else if (request.isNavigationRequest() && STORY_PAGES.has(url.pathname)) {
      events.push(`${where} ${url.pathname}${url.search}`);
    }
  });
  return events;
}

/** Notes every iframe the page adds: how it is hidden. */
async function recordFrames({ context }: UsersPage) {
  await context.addInitScript(() => {
    const frames: unknown[] = [];
    Object.assign(window, { __frames: frames });
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) {
          if (node instanceof HTMLIFrameElement) {
            frames.push({
              path: new URL(node.src, location.href).pathname,
              hidden: node.hidden,
              ariaHidden: node.getAttribute('aria-hidden'),
              display: getComputedStyle(node).display,
            });
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}
const framesAdded = (users: UsersPage) =>
  users.page.evaluate(() => (window as unknown as { __frames: unknown[] }).__frames);

/** Answers the first call matching `url` with `answer`, and lets the later ones through. */
async function answerOnce(users: UsersPage, url: RegExp, answer: Parameters<Route['fulfill']>[0]) {
  let answered = false;
  await users.page.route(url, (route) => {
    if (answered) return route.fallback();
    answered = true;
    return route.fulfill(answer);
  });
}
/** Answers every call matching `url` with `answer`. */
async function answerAlways(users: UsersPage, url: RegExp, answer: Parameters<Route['fulfill']>[0]) {
  await users.page.route(url, (route) => route.fulfill(answer));
}

const oauthError = (status: number, error: string, description: string) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify({ error, error_description: description }),
});
/** The full-page sign-ins started: where they come back to, and for which resource. */
const visibleSignIns = (events: string[]) =>
  events
    .filter((e) => e.startsWith('page /auth/start?'))
    .map((e) => {
      const params = new URL(e.slice('page '.length), 'http://x').searchParams;
      return { post_auth_redirect_path: params.get('post_auth_redirect_path'), resource: params.get('resource') };
    });
const silentStart = (baseUrl: string) =>
  `frame /auth/start?${new URLSearchParams({ resource: baseUrl, callback_mode: 'silent', prompt: 'none' })}`;

/**
 * A page with a session of its own (see Suite.open), loaded once; then `fakes` are set up and the
 * page is loaded again, recording what happens from there.
 */
async function reloadWith(fakes: (users: UsersPage) => Promise<void>) {
  const users = await suite.open({ session: 'own', setup: recordFrames });
  await users.waitForList(1, 25, ACME_TOTAL);
  await fakes(users);
  const events = recordEvents(users);
  await users.page.evaluate(() => {
    (window as unknown as { __frames: unknown[] }).__frames.length = 0;
  });
  await users.page.reload();
  return { users, events };
}

describe('the session lookup', () => {
  it('without a session (400 invalid_request, "no access token provided") signs in silently in a hidden frame, then looks the session up again', async () => {
    let events: string[] = [];
    const users = await suite.open({
      session: 'own',
      setup: async (u) => {
        events = recordEvents(u);
        await recordFrames(u);
      },
    });
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(events).toEqual([
      'page /',
      'session lookup',
      silentStart(suite.baseUrl),
      'frame /oidc/callback?status=success',
      'session lookup',
      'list',
    ]);
    // The frame was hidden from sight and from assistive technology, and is gone now.
    expect(await framesAdded(users)).toEqual([
      { path: '/auth/start', hidden: true, ariaHidden: 'true', display: 'none' },
    ]);
    expect(await users.page.locator('iframe').count()).toBe(0);
  });

  it('on 401 (an expired session) signs in silently, then looks the session up again', async () => {
    const { users, events } = await reloadWith((u) =>
      answerOnce(u, SESSION_API, oauthError(401, 'invalid_token', 'the access token is expired or invalid')),
    );
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(events).toEqual([
      'page /',
      'session lookup',
      silentStart(suite.baseUrl),
      'frame /oidc/callback?status=success',
      'session lookup',
      'list',
    ]);
    expect(await framesAdded(users)).toEqual([
      { path: '/auth/start', hidden: true, ariaHidden: 'true', display: 'none' },
    ]);
  });

  it('on another 400 does not sign in, and says the users could not be loaded', async () => {
    let events: string[] = [];
    const users = await suite.open({
      setup: async (u) => {
        events = recordEvents(u);
        await answerOnce(u, SESSION_API, oauthError(400, 'invalid_request', 'something else'));
      },
    });
    await users.page.getByRole('alert').filter({ hasText: ERROR }).waitFor();
    expect(events).toEqual(['page /', 'session lookup']);
  });

  it('counts only a well-formed oidc_callback message from its own frame on its own origin', async () => {
    let events: string[] = [];
    const otherOrigin = suite.baseUrl.replace('127.0.0.1', 'localhost');
    const users = await suite.open({
      setup: async (u) => {
        events = recordEvents(u);
        await answerOnce(u, SESSION_API, oauthError(401, 'invalid_token', 'expired'));
        // The silent sign-in's own frame sends a malformed message, and holds a frame of another
        // origin that claims success.
        await u.page.route(/\/auth\/start\?.*prompt=none/, (route) =>
          route.fulfill({
            contentType: 'text/html',
            body: `<script>parent.postMessage({ type: 'oidc_callback', status: 'maybe' }, location.origin)</script>
              <iframe src="${otherOrigin}/pretend-callback"></iframe>`,
          }),
        );
        await u.page.route(`${otherOrigin}/pretend-callback`, (route) =>
          route.fulfill({
            contentType: 'text/html',
            body: `<script>top.postMessage({ type: 'oidc_callback', status: 'success' }, '*')</script>`,
          }),
        );
        await u.page.addInitScript(() => {
          const origins: string[] = [];
          Object.assign(window, { __messages: origins });
          window.addEventListener('message', (event) => origins.push(event.origin));
        });
      },
    });
    const messages = async () =>
      (await users.page.evaluate(() => (window as unknown as { __messages?: string[] }).__messages ?? [])).sort();
    await expect.poll(messages).toEqual([suite.baseUrl, otherOrigin].sort());
    // And the page itself, not its frame, claims success on the right origin.
    await users.page.evaluate(() => window.postMessage({ type: 'oidc_callback', status: 'success' }, location.origin));
    await expect.poll(messages).toEqual([suite.baseUrl, suite.baseUrl, otherOrigin].sort());
    await users.page.waitForTimeout(500);

    // None of them counted: no second lookup, no list, the page still waits.
    expect(events.filter((e) => e === 'session lookup' || e === 'list')).toEqual(['session lookup']);
    expect(await users.page.getByRole('progressbar').count()).toBe(1);
    expect(await users.rows.count()).toBe(0);
  });

  it('without a sign-in at the identity provider (login_required), goes to the visible sign-in and back to the same view', async () => {
    let events: string[] = [];
    const users = await suite.open({
      as: null,
      path: '/?page=2&sort=-name',
      setup: async (u) => {
        events = recordEvents(u);
      },
    });
    await signInAs(users.page, ACME_ADMIN.email, ACME_ADMIN.password);
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(users.query()).toEqual({ page: '2', sort: '-name' });
    expect(events.slice(0, 4)).toEqual([
      'page /?page=2&sort=-name',
      'session lookup',
      silentStart(suite.baseUrl),
      'frame /oidc/callback?status=error&error=login_required',
    ]);
    expect(visibleSignIns(events)).toEqual([
      { post_auth_redirect_path: '/?page=2&sort=-name', resource: suite.baseUrl },
    ]);
  });

  it('falls back to the visible sign-in when the silent one has not answered in 60 s', async () => {
    let events: string[] = [];
    const users = await suite.open({
      setup: async (u) => {
        events = recordEvents(u);
        await u.page.clock.install();
        await answerOnce(u, SESSION_API, oauthError(401, 'invalid_token', 'expired'));
        // The silent sign-in never answers; the visible one is not followed (it would end the shared session).
        await u.page.route(/\/auth\/start\?.*prompt=none/, () => {});
        await u.page.route(/\/auth\/start\?post_auth_redirect_path/, (route) =>
          route.fulfill({ contentType: 'text/html', body: '<h1>Sign in</h1>' }),
        );
      },
    });
    await expect.poll(() => events).toContain(silentStart(suite.baseUrl));
    await users.page.clock.fastForward(58_500);
    await users.page.waitForTimeout(300);
    expect(visibleSignIns(events)).toEqual([]);
    await users.page.clock.fastForward(2_000);
    await expect
      .poll(() => visibleSignIns(events))
      .toEqual([{ post_auth_redirect_path: '/', resource: suite.baseUrl }]);
  });
});

describe('the first calls', () => {
  for (const path of ['/', '/?status=pending&sort=-name&pageSize=50']) {
    it(`start while the page's own code is still downloading, and are made once (${path})`, async () => {
      let events: string[] = [];
      let listStarted = false;
      let bundleHeldUntilTheList: boolean | undefined;
      const users = await suite.open({
        path,
        setup: async (u) => {
          events = recordEvents(u);
          u.page.on('request', (request) => {
            if (USERS_API.test(request.url())) listStarted = true;
          });
          // The page's main script is held until the list call has started, for 10 s at most.
          await u.page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
            const deadline = Date.now() + 10_000;
            while (!listStarted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
            bundleHeldUntilTheList = listStarted;
            await route.continue();
          });
        },
      });
      await users.page.getByRole('table').getByRole('row').nth(1).waitFor();
      expect(bundleHeldUntilTheList).toBe(true);
      // The page adopted both answers: no second lookup, no second list call.
      expect(events).toEqual([`page ${path}`, 'session lookup', 'list']);
      const query = new URL(path, suite.baseUrl).searchParams;
      expect(users.listRequests[0]?.searchParams.get('filter[status]')).toBe(query.get('status'));
      expect(users.listRequests[0]?.searchParams.get('sort')).toBe(query.get('sort'));
      expect(users.listRequests[0]?.searchParams.get('page[size]')).toBe(query.get('pageSize'));
    });
  }
});

describe('the HTTP client on the users list', () => {
  for (const status of [401, 403]) {
    it(`on ${status} renews the session silently and retries once, then shows the list`, async () => {
      const { users, events } = await reloadWith((u) =>
        answerOnce(u, USERS_API, { status, contentType: JSON_API, body: '{"errors":[]}' }),
      );
      await users.waitForList(1, 25, ACME_TOTAL);
      expect(events).toEqual([
        'page /',
        'session lookup',
        'list',
        silentStart(suite.baseUrl),
        'frame /oidc/callback?status=success',
        'list',
      ]);
    });
  }

  it('on a second 403 gives up after the one retry (the page says it cannot list users)', async () => {
    const { users, events } = await reloadWith((u) =>
      answerAlways(u, USERS_API, { status: 403, contentType: JSON_API, body: '{"errors":[]}' }),
    );
    await users.page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    await users.page.waitForTimeout(500);
    expect(events).toEqual([
      'page /',
      'session lookup',
      'list',
      silentStart(suite.baseUrl),
      'frame /oidc/callback?status=success',
      'list',
    ]);
  });

  const failures: [string, Parameters<Route['fulfill']>[0]][] = [
    ['409 conflict', { status: 409, contentType: JSON_API, body: '{"errors":[{"status":"409"}]}' }],
    ['500', { status: 500, contentType: JSON_API, body: '{"errors":[{"status":"500"}]}' }],
    ['204 (no content: the result is null)', { status: 204, body: '' }],
    ['a body that is not JSON (the result is null)', { status: 200, contentType: JSON_API, body: '<html>oops' }],
  ];
  for (const [name, answer] of failures) {
    it(`on ${name} shows the error alert without crashing, after one call and no renewal`, async () => {
      let events: string[] = [];
      const users = await suite.open({
        setup: async (u) => {
          events = recordEvents(u);
          await answerAlways(u, USERS_API, answer);
        },
      });
      await users.page.getByRole('alert').filter({ hasText: ERROR }).waitFor();
      await users.page.waitForTimeout(300);
      expect(events).toEqual(['page /', 'session lookup', 'list']);
      // Still the page: header, search and filter work on.
      expect(await users.heading.isVisible()).toBe(true);
      expect(await users.searchBox.isVisible()).toBe(true);
      expect(users.pageErrors).toEqual([]);
    });
  }
});

describe('the cache', () => {
  it('shows a view seen in the last 60 s again without a call, and calls again after 60 s', async () => {
    const users = await suite.open({ setup: ({ page }) => page.clock.install() });
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.goToPage(2);
    await users.waitForList(26, 50, ACME_TOTAL);
    expect(users.listRequests).toHaveLength(2);

    await users.page.goBack();
    await users.waitForList(1, 25, ACME_TOTAL);
    expect(users.listRequests).toHaveLength(2);

    await users.page.clock.fastForward(61_000);
    await users.page.goForward();
    await expect.poll(() => users.listRequests.length).toBe(3);
    expect(users.listRequests.at(-1)?.searchParams.get('page[number]')).toBe('2');
  });

  it('does not call again when the window regains focus or the network comes back, even with old data', async () => {
    const users = await suite.open({ setup: ({ page }) => page.clock.install() });
    await users.waitForList(1, 25, ACME_TOTAL);
    await users.page.clock.fastForward(61_000);
    await users.page.evaluate(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      window.dispatchEvent(new Event('focus'));
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
    });
    await users.page.waitForTimeout(500);
    expect(users.listRequests).toHaveLength(1);
  });
});
