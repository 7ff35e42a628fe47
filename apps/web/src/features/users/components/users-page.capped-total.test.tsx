import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locationRef, renderWithProviders } from '../../../testing/render.tsx';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

// A search with more matches than the server counts: 10,000 "at least", paged through its first 10,000.
const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const requests: URL[] = [];

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/vnd.api+json' } });

function answer(url: URL): Response {
  const size = Number(url.searchParams.get('page[size]') ?? 25);
  if (Number(url.searchParams.get('page[number]') ?? 1) > Math.ceil(10_000 / size)) {
    return jsonResponse(400, {
      errors: [{ status: '400', code: 'page_beyond_search_window', title: 'Page beyond the search window' }],
    });
  }
  return jsonResponse(200, usersDocument(url, 10_000, 'gte'));
}

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      requests.push(url);
      return answer(url);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const renderPage = (url = '/?search=example') =>
  renderWithProviders(
    <UsersPage orgId={ORG} homeUrl="https://home.example/" launchpadUrl="https://launch.example/" />,
    { url },
  );

describe('a search with more matches than the server counts', () => {
  it('says "more than 10,000" and offers the pages of the window only', async () => {
    renderPage();
    expect(await screen.findByText('1–25 of more than 10,000')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–25 of more than 10,000 users')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    const numbers = within(pages)
      .getAllByRole('button', { name: /^(Go to page|Page) \d+$/ })
      .map((button) => button.textContent);
    expect(numbers.at(-1)).toBe('400');
    expect(within(pages).queryByRole('button', { name: 'Go to page 401' })).toBeNull();
  });

  it('ends the window at its last page for a larger page size too', async () => {
    renderPage('/?search=example&pageSize=100&page=100');
    expect(await screen.findByText('9,901–10,000 of more than 10,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
  });

  it('takes a link to a page beyond the window to the window’s last page, in place', async () => {
    renderPage('/?page=401&search=example');
    expect(await screen.findByText('9,976–10,000 of more than 10,000')).toBeInTheDocument();
    expect(locationRef.current?.search).toBe('?page=400&search=example');
    expect(screen.queryByText('There was an error loading the users. Please try again.')).toBeNull();
  });
});
