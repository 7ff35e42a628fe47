import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';

// What the browser tests know beside the page object: the demo accounts and numbers, the breakpoints,
// the shape of a row as read, the API's calls and answers, and a holder for list answers.

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
