// Rendered at build time, on a server, by build/first-render-styles.ts: the Users page as its first
// render in the browser draws it (English, a first page of 25 users, no filters, SPEC.md's columns), for the styles
// Emotion gives it. Not part of the page's bundle.
import Box from '@mui/material/Box';
import { DEFAULT_USER_COLUMNS, type SessionClaims, type UserStatus } from '@users-admin/contract';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { initI18n } from '../src/app/i18n.ts';
import { AppProviders, createQueryClient } from '../src/app/providers.tsx';
import { getSessionQueryOptions } from '../src/features/session/api/get-session.ts';
import { getUserColumnsQueryOptions } from '../src/features/users/api/get-user-columns.ts';
import { getUsersQueryOptions, type User, type UsersList } from '../src/features/users/api/get-users.ts';
import { UsersPage } from '../src/features/users/components/users-page.tsx';
import { parseUsersSearchParams } from '../src/features/users/model/users-url-query.ts';

const ORG_ID = 'org';
const STATUSES: UserStatus[] = ['active', 'pending', 'inactive', 'disabled'];

/** 25 users: every status, with and without a third-party source and the System Admin type. */
function firstPage(): UsersList {
  const users: User[] = Array.from({ length: 25 }, (_, index) => ({
    id: `user-${index}`,
    name: `User ${index}`,
    email: `user${index}@example.com`,
    initials: null,
    firstName: 'User',
    lastName: `${index}`,
    status: STATUSES[index % STATUSES.length] ?? 'active',
    isExternal: index % 5 === 1,
    isSystemAdmin: index % 3 === 0,
    lastSignInAt: index % 4 === 0 ? null : '2026-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
  }));
  return { users, links: { self: '/', first: '/', last: '/' }, total: 423, totalIsLowerBound: false };
}

/**
 * The HTML of the Users page's first render, with the `<style data-emotion>` elements Emotion
 * writes beside a server-rendered page. What the route around the page adds is a Box; what the
 * page loads lazily (its footer) renders as its placeholder, as in the browser's first render.
 */
export function renderFirstRender(): string {
  // i18n.ts marks the document's language as it starts; there is no document here, and Emotion
  // must not think there is one (it would insert styles instead of writing them out).
  const global = globalThis as { document?: unknown };
  global.document = { documentElement: {} };
  try {
    initI18n();
  } finally {
    delete global.document;
  }
  const session: SessionClaims = {
    sub: 'admin',
    org_id: ORG_ID,
    locale: 'en',
    name: 'Admin',
    email: 'admin@example.com',
  };
  const queryClient = createQueryClient();
  queryClient.setQueryData(getSessionQueryOptions().queryKey, session);
  queryClient.setQueryData(
    getUsersQueryOptions(ORG_ID, parseUsersSearchParams(new URLSearchParams())).queryKey,
    firstPage(),
  );
  queryClient.setQueryData(getUserColumnsQueryOptions(ORG_ID).queryKey, [...DEFAULT_USER_COLUMNS]);
  return renderToString(
    <MemoryRouter>
      <AppProviders queryClient={queryClient}>
        <Box>
          <UsersPage orgId={ORG_ID} homeUrl="https://home.example" launchpadUrl="https://launchpad.example" />
        </Box>
      </AppProviders>
    </MemoryRouter>,
  );
}
