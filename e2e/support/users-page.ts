import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import type { StorageState } from './seeded-server.ts';

// Over 300 lines as one piece: the browser tests' vocabulary of the page (its page object and the
// API's fixtures); the suite that starts a server and browser is suite.ts.

/** The demo organisations (README.md): Acme's admin is a System Admin, its plain user may not list users. */
export const ACME_ADMIN = { email: 'admin@acme.example', password: 'admin' } as const;
export const ACME_USER = { email: 'user@acme.example', password: 'user' } as const;
export const ACME_TOTAL = 423;

/** The users list call of SPEC.md §7, whatever the organisation and query. */
export const USERS_API = /\/apis\/accounts\/api\/v3\/orgs\/[^/?]+\/users(\?|$)/;
export const SESSION_API = /\/apis\/oidc\/userinfo$/;
export const JSON_API = 'application/vnd.api+json';

export type Viewport = { width: number; height: number };

/** The four breakpoints the page is drawn at (SPEC.md §9), one width inside each. */
export const BREAKPOINTS = {
  sm: { width: 400, height: 900 },
  md: { width: 600, height: 900 },
  lg: { width: 1000, height: 900 },
  xl: { width: 1440, height: 900 },
} as const satisfies Record<string, Viewport>;

export interface RowText {
  name: string;
  email: string;
  avatar: string;
  dataSource: string;
  status: string;
  rowAction: string | null;
  userType: string;
  checkbox: { disabled: boolean; checked: boolean };
}

/** A user as the accounts API sends it. */
export interface ApiUser {
  id: string;
  attributes: {
    name: string;
    email: string;
    initials: string | null;
    first_name: string | null;
    last_name: string | null;
    status: 'active' | 'inactive' | 'pending' | 'disabled';
    is_external: boolean;
    is_system_admin: boolean;
    last_sign_in_at: string | null;
    created_at: string;
  };
}
export interface ApiList {
  data: ApiUser[];
  meta: { total_count: number; total_count_relation: 'eq' | 'gte' };
}

export interface OpenOptions {
  path?: string;
  viewport?: Viewport;
  setup?: (usersPage: UsersPage) => Promise<void>;
  /** 'commit' for a page that leaves before it has loaded. */
  waitUntil?: 'load' | 'commit';
}

/** The Users page in a new page, with the list calls it makes recorded in order. */
export class UsersPage {
  /** Every users-list request the page made, as URLs. */
  readonly listRequests: URL[] = [];
  /** Users-list requests made and not yet answered (or failed). */
  listCallsInFlight = 0;
  /** Every request of any kind, with its resource type and the time (Date.now()) it was made. */
  readonly allRequests: { url: string; type: string; at: number }[] = [];
  readonly consoleMessages: string[] = [];
  readonly pageErrors: Error[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseUrl: string,
    private readonly ownsContext: boolean,
  ) {
    page.on('request', (request) => {
      this.allRequests.push({ url: request.url(), type: request.resourceType(), at: Date.now() });
      if (USERS_API.test(request.url())) {
        this.listRequests.push(new URL(request.url()));
        this.listCallsInFlight++;
      }
    });
    const ended = (request: { url(): string }) => {
      if (USERS_API.test(request.url())) this.listCallsInFlight--;
    };
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    page.on('console', (message) => this.consoleMessages.push(message.text()));
    page.on('pageerror', (error) => this.pageErrors.push(error));
  }

  /**
   * Opens `path` in a new context. `setup` runs before the page loads (routes, init scripts).
   * Does not wait for the list: tests wait for what they expect to see.
   */
  static async open(browser: Browser, baseUrl: string, options: OpenOptions & { state?: StorageState } = {}) {
    const context = await browser.newContext({
      viewport: options.viewport ?? BREAKPOINTS.xl,
      ...(options.state ? { storageState: options.state } : {}),
    });
    return UsersPage.openIn(context, baseUrl, options, true);
  }

  /** Opens `path` in a new page of `context`; closing it closes the context too when it `owns` it. */
  static async openIn(context: BrowserContext, baseUrl: string, options: OpenOptions = {}, owns = false) {
    const page = await context.newPage();
    if (!owns && options.viewport) await page.setViewportSize(options.viewport);
    const usersPage = new UsersPage(context, page, baseUrl, owns);
    await options.setup?.(usersPage);
    await page.goto(`${baseUrl}${options.path ?? '/'}`, { waitUntil: options.waitUntil ?? 'load' });
    return usersPage;
  }

  /** Calls made since `since` (an index into allRequests): anything but the page's own code and assets. */
  callsSince(since: number): string[] {
    const code = new Set(['script', 'stylesheet', 'font', 'image']);
    return this.allRequests
      .slice(since)
      .filter((r) => !code.has(r.type))
      .map((r) => `${r.type} ${r.url}`);
  }

  async close(): Promise<void> {
    await (this.ownsContext ? this.context.close() : this.page.close());
  }

  // What the page shows ------------------------------------------------------------------------

  get heading(): Locator {
    return this.page.getByRole('heading', { name: 'Users', level: 1 });
  }
  /** By role and name; like every role query, it finds nothing while a menu or popover hides the page. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Users' });
  }
  /** By CSS, so that the rows can be read while a popover is open. */
  get rows(): Locator {
    return this.page.locator('main table tbody tr');
  }
  get searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search name or email' });
  }
  get clearSearchButton(): Locator {
    return this.page.getByRole('button', { name: 'Clear search' });
  }
  get actionsButton(): Locator {
    return this.page.getByRole('button', { name: 'Actions' });
  }
  /** Named 'Filter', or 'Filter, n active filter(s)'. */
  get filterButton(): Locator {
    return this.page.getByRole('button', { name: /^Filter(, \d+ active filters?)?$/ });
  }
  get filterBadge(): Locator {
    return this.page.locator('.MuiBadge-badge');
  }
  get filtersDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Filters' });
  }
  get sortButton(): Locator {
    return this.page.getByRole('button', { name: /^User( ?, sorted (A to Z|Z to A))?$/ });
  }
  get userColumnHeader(): Locator {
    return this.page.locator('main table thead th').nth(1);
  }
  get pageCheckbox(): Locator {
    return this.page.getByRole('checkbox', { name: 'Select all users on this page' });
  }
  get rowsPerPage(): Locator {
    return this.page.getByRole('combobox', { name: 'Rows per page:' });
  }
  get pagination(): Locator {
    return this.page.getByRole('navigation', { name: 'Pages' });
  }
  /** The footer's 'from–to of total'. */
  get displayedRows(): Locator {
    return this.page.locator('.MuiTablePagination-displayedRows');
  }
  /** The polite live region that announces what the list now shows. */
  get announcement(): Locator {
    return this.page.locator('main [role="status"][aria-live="polite"]');
  }
  get loadingOverlay(): Locator {
    return this.page.getByRole('progressbar', { name: 'Loading users' });
  }
  get clearSelectionButton(): Locator {
    return this.page.getByRole('button', { name: 'Clear selection' });
  }
  /** The selection banner: a region named by its text, e.g. '3 selected'. */
  get selectionBanner(): Locator {
    return this.page.getByRole('region', { name: /selected/ });
  }
  /** The banner's text, or null when there is no banner. */
  async selectionText(): Promise<string | null> {
    if ((await this.selectionBanner.count()) === 0) return null;
    return this.selectionBanner.getByRole('status').textContent();
  }
  rowCheckbox(name: string): Locator {
    return this.page.getByRole('checkbox', { name: `Select ${name}`, exact: true });
  }

  /** The address bar's query, as a plain object, for exact comparison. */
  query(): Record<string, string> {
    return Object.fromEntries(new URL(this.page.url()).searchParams);
  }

  /** 'true' while the table area is loading, 'false' once settled, null without a table area. */
  async busy(): Promise<string | null> {
    return this.page.evaluate(() => document.querySelector('main [aria-busy]')?.getAttribute('aria-busy') ?? null);
  }

  /**
   * Waits until the list has settled (nothing loading) on the footer's 'from–to of total'. The footer
   * alone is not enough: it shows the new page numbers while the previous rows are still on screen.
   */
  async waitForList(from: number, to: number, total: number): Promise<void> {
    await expect
      .poll(
        () =>
          this.page.evaluate(() => {
            const busy = document.querySelector('main [aria-busy]')?.getAttribute('aria-busy');
            const label = document.querySelector('.MuiTablePagination-displayedRows')?.textContent;
            return `busy=${busy} ${label}`;
          }),
        { timeout: 15_000 },
      )
      .toBe(`busy=false ${from}–${to} of ${total}`);
  }

  /** The rows as the page shows them, read in one go. */
  async readRows(): Promise<RowText[]> {
    return this.rows.evaluateAll((rows) =>
      rows.map((row) => {
        const cells = row.querySelectorAll(':scope > td, :scope > th');
        const userCell = cells[1] as HTMLElement;
        const texts = userCell.querySelectorAll('p');
        const statusCell = cells[3] as HTMLElement;
        const checkbox = row.querySelector('input[type="checkbox"]') as HTMLInputElement;
        return {
          name: texts[0]?.textContent ?? '',
          email: texts[1]?.textContent ?? '',
          avatar: userCell.querySelector('.UsersTable-avatar')?.textContent ?? '',
          dataSource: cells[2]?.textContent ?? '',
          status: statusCell.firstElementChild?.textContent ?? '',
          rowAction: statusCell.querySelector('button')?.textContent ?? null,
          userType: cells[4]?.textContent ?? '',
          // A third-party user's checkbox is aria-disabled, not disabled, so that it can take focus.
          checkbox: {
            disabled: checkbox.disabled || checkbox.getAttribute('aria-disabled') === 'true',
            checked: checkbox.checked,
          },
        };
      }),
    );
  }

  async rowNames(): Promise<string[]> {
    return (await this.readRows()).map((row) => row.name);
  }

  // What a person does -------------------------------------------------------------------------

  /** Types into the search box and presses Enter. */
  async search(text: string): Promise<void> {
    await this.searchBox.fill(text);
    await this.searchBox.press('Enter');
  }

  async openFilters(): Promise<Locator> {
    await this.filterButton.click();
    try {
      await this.filtersDialog.waitFor({ timeout: 10_000 });
    } catch (error) {
      // Say what the page showed instead, to tell a slow page from a broken one.
      const state = await this.page.evaluate(() => ({
        button: document.querySelector('[aria-haspopup="dialog"]')?.outerHTML.slice(0, 300),
        popovers: [...document.querySelectorAll('.MuiPopover-root')].map((e) => e.outerHTML.slice(0, 300)),
        hidden: [...document.body.children].map((e) => `${e.tagName} aria-hidden=${e.getAttribute('aria-hidden')}`),
      }));
      throw new Error(`The Filters dialog did not open: ${JSON.stringify(state)}`, { cause: error });
    }
    return this.filtersDialog;
  }

  /** Picks an option of one of the selects inside the open Filters dialog. */
  async chooseFilter(select: 'Status' | 'User type' | 'Data source' | 'Last sign-in', option: string): Promise<void> {
    await this.filtersDialog.getByRole('combobox', { name: select }).click();
    await this.page.getByRole('listbox', { name: select }).getByRole('option', { name: option, exact: true }).click();
    await this.page.getByRole('listbox').waitFor({ state: 'detached' });
  }

  async closeFilters(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.filtersDialog.waitFor({ state: 'hidden' });
  }

  async chooseRowsPerPage(size: 25 | 50 | 100): Promise<void> {
    await this.rowsPerPage.click();
    await this.page.getByRole('option', { name: String(size), exact: true }).click();
  }

  async goToPage(page: number): Promise<void> {
    await this.pagination.getByRole('button', { name: `Go to page ${page}`, exact: true }).click();
  }

  /** The names of the numbered page buttons in the footer, e.g. ['1', '4', '5', '6', '17']. */
  async pageButtons(): Promise<string[]> {
    return this.pagination
      .getByRole('button', { name: /^(Go to page|Page) \d+$/ })
      .evaluateAll((buttons) => buttons.map((button) => button.textContent ?? ''));
  }

  /** Chooses a bulk action from the Actions menu. */
  async chooseAction(action: string): Promise<void> {
    await this.actionsButton.click();
    await this.page.getByRole('menuitem', { name: action }).click();
    await this.page.getByRole('menu').waitFor({ state: 'detached' });
  }

  /** Chooses a bulk action from the Actions menu with the keyboard, which aims at no point of the page. */
  async chooseActionFromKeyboard(action: string): Promise<void> {
    await this.actionsButton.focus();
    await this.page.keyboard.press('Enter');
    await this.page.getByRole('menuitem', { name: action }).focus();
    await this.page.keyboard.press('Enter');
    await this.page.getByRole('menu').waitFor({ state: 'detached' });
  }

  async actionNames(): Promise<string[]> {
    await this.actionsButton.click();
    const menu = this.page.getByRole('menu', { name: 'Actions' });
    await menu.waitFor();
    const names = await menu.getByRole('menuitem').allTextContents();
    await this.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    return names;
  }

  // Talking to the server behind the page's back ----------------------------------------------

  /** The organisation of the signed-in session. */
  async orgId(): Promise<string> {
    const response = await this.page.request.get(`${this.baseUrl}/apis/oidc/userinfo`);
    expect(response.status()).toBe(200);
    return ((await response.json()) as { org_id: string }).org_id;
  }

  /** Asks the server directly (with this context's cookies) for a list, as the page would. */
  async api(params: Record<string, string | number> = {}): Promise<ApiList> {
    const orgId = await this.orgId();
    const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
    const response = await this.page.request.get(
      `${this.baseUrl}/apis/accounts/api/v3/orgs/${orgId}/users${query.size ? `?${query}` : ''}`,
    );
    expect(response.status()).toBe(200);
    return (await response.json()) as ApiList;
  }
}

/** Wire parameters of a recorded list request, as a plain object. */
export function wireParams(url: URL | undefined): Record<string, string> {
  return url ? Object.fromEntries(url.searchParams) : {};
}

/** What the page should show in each column for a user (SPEC.md §2, §3, §4). */
export function expectedRow(user: ApiUser): Omit<RowText, 'checkbox'> {
  const a = user.attributes;
  const first = (text: string | null) => Array.from(text?.trim() ?? '')[0] ?? '';
  const initials = a.initials?.trim() ? a.initials.trim() : `${first(a.first_name)}${first(a.last_name)}`.toUpperCase();
  const statusLabel = { active: 'Active', inactive: 'Inactive', pending: 'Pending', disabled: 'Disabled' }[a.status];
  const rowAction = {
    active: null,
    pending: 'Resend invitation',
    inactive: 'Send invitation',
    disabled: 'Contact support',
  }[a.status];
  return {
    name: a.name,
    email: a.email,
    avatar: initials,
    dataSource: a.is_external ? 'Third party' : 'Platform',
    status: statusLabel,
    rowAction,
    userType: a.is_system_admin ? 'System Admin' : 'User',
  };
}

/** An empty JSON:API list, for an organisation with no users at all. */
export const EMPTY_LIST = {
  data: [],
  links: { self: '', first: '', last: '' },
  meta: { total_count: 0, total_count_relation: 'eq' },
};

/**
 * Holds the users-list answers until released, to see what the page shows while it waits.
 * `held()` says how many are waiting.
 */
export async function holdListAnswers(page: Page) {
  const waiting: Route[] = [];
  let released = false;
  const handler = async (route: Route) => {
    if (released) await route.fallback();
    else waiting.push(route);
  };
  await page.route(USERS_API, handler);
  return {
    held: () => waiting.length,
    async waitUntilHeld(count = 1) {
      await expect.poll(() => waiting.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    },
    /** Lets the held answers (and any later ones) through. */
    async release() {
      released = true;
      for (const route of waiting.splice(0)) await route.fallback();
      await page.unroute(USERS_API, handler);
    },
  };
}
