import type { Browser, BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser } from './browser.ts';
import { ACME_ADMIN, ACME_USER, BREAKPOINTS } from './demo-data.ts';
import { type Account, type StorageState, startSeededServer } from './seeded-server.ts';
import type { RunningServer } from './server.ts';
import { type OpenOptions, UsersPage } from './users-page.ts';

/** The server's own session cookie (the identity provider's cookies are others). */
const SERVER_SESSION_COOKIE = 'sid';

/**
 * One spec file's world: one server on its own copy of the seeded demo data, one browser, and the
 * demo accounts already signed in (see seeded-server.ts). A test's pages are closed after it.
 *
 * Pages signed in with the shared session open in one context per account, kept for the file: its
 * cache spares each test fetching and compiling the page's code again. Their local storage is
 * emptied before each page, so every test starts as a first visit; a test that changes the context
 * itself (its cookies, routes, permissions) asks for a `fresh` one.
 */
export class Suite {
  server!: RunningServer;
  browser!: Browser;
  private states: Record<string, StorageState> = {};
  private opened: UsersPage[] = [];
  private kept = new Map<string, Promise<BrowserContext>>();

  get baseUrl(): string {
    return this.server.baseUrl;
  }

  /**
   * `prepare` changes the server's copy of the demo data before the server starts. `shared` uses
   * the run's shared server (support/shared-server.ts) instead of one of the file's own: for files
   * that only read, and change nothing others would see (preferences, users, sessions they share).
   */
  async start({
    env = {},
    prepare,
    shared = false,
  }: {
    env?: Record<string, string>;
    prepare?: (dataDir: string) => Promise<void>;
    shared?: boolean;
  } = {}) {
    if (shared) {
      const { baseUrl, states } = inject('sharedServer');
      this.browser = await launchBrowser();
      this.server = { baseUrl, dataDir: '', output: () => '', stop: async () => {} };
      this.states = states;
      return;
    }
    // The browser starts while the server does; it is waited for only if the template must be made.
    const browser = launchBrowser();
    const [launched, seeded] = await Promise.all([
      browser,
      startSeededServer(() => browser, [ACME_ADMIN, ACME_USER], env, prepare),
    ]).catch(async (error: unknown) => {
      await browser.then((b) => b.close()).catch(() => {});
      throw error;
    });
    this.browser = launched;
    this.server = seeded.server;
    this.states = seeded.states;
  }

  state(account: Account = ACME_ADMIN): StorageState {
    const state = this.states[account.email];
    if (!state) throw new Error(`${account.email} was not signed in by Suite.start`);
    return state;
  }

  /**
   * The Users page at `path`, signed in as `as` (the Acme admin by default), or signed out with `as: null`.
   *
   * `session: 'own'` keeps the sign-in at the identity provider but not the server's session cookie,
   * so the page starts a session of its own by silent sign-in. Use it in every test that may renew
   * the session: a renewal ends the session it replaces, and the shared one must live on.
   * `fresh: true` opens the page in a context of its own, for a test that changes the context.
   */
  async open(
    options: OpenOptions & { as?: Account | null; session?: 'shared' | 'own'; fresh?: boolean } = {},
  ): Promise<UsersPage> {
    const { as = ACME_ADMIN, session = 'shared', fresh = false, ...rest } = options;
    let usersPage: UsersPage;
    if (as && session === 'shared' && !fresh) {
      const setup = async (opened: UsersPage) => {
        await this.forgetLocalStorage(opened);
        await rest.setup?.(opened);
      };
      usersPage = await UsersPage.openIn(await this.keptContext(as), this.baseUrl, { ...rest, setup });
    } else {
      let state = as ? this.state(as) : undefined;
      if (state && session === 'own') {
        state = { ...state, cookies: state.cookies.filter((cookie) => cookie.name !== SERVER_SESSION_COOKIE) };
      }
      usersPage = await UsersPage.open(this.browser, this.baseUrl, { ...rest, ...(state ? { state } : {}) });
    }
    this.opened.push(usersPage);
    return usersPage;
  }

  private keptContext(account: Account): Promise<BrowserContext> {
    let context = this.kept.get(account.email);
    if (!context) {
      context = this.browser.newContext({ viewport: BREAKPOINTS.xl, storageState: this.state(account) });
      this.kept.set(account.email, context);
    }
    return context;
  }

  /** What the page keeps for its next start (the last organisation, the language) is gone, as on a first visit. */
  private async forgetLocalStorage({ context, page }: UsersPage): Promise<void> {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', {
      origin: new URL(this.baseUrl).origin,
      storageTypes: 'local_storage',
    });
    await cdp.detach();
  }

  async closePages(): Promise<void> {
    for (const usersPage of this.opened.splice(0)) await usersPage.close();
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await this.server?.stop();
  }
}
