import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type ApiList, BREAKPOINTS, type RowText, USERS_API, type Viewport } from './demo-data.ts';
import type { StorageState } from './seeded-server.ts';

// Over 300 lines as one piece: the browser tests' page object, every part of the page by role and
// name and what a person does with them. Demo data and API fixtures: demo-data.ts; servers: suite.ts.

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
