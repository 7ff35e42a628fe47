import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locationRef, renderWithProviders } from '../../../testing/render.tsx';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

// A search with more matches than the server counts: 1,000 "at least", paged through its first 1,000.
const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const EXACT = 512_345;
const requests: URL[] = [];
/** The exact count's answer, held until the test lets it go. */
let countAnswer: Promise<Response>;
let releaseCount: (response: Response) => void;

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/vnd.api+json' } });

function answer(url: URL): Response | Promise<Response> {
  if (url.searchParams.get('page[total]') === 'exact') return countAnswer;
  const size = Number(url.searchParams.get('page[size]') ?? 25);
  if (Number(url.searchParams.get('page[number]') ?? 1) > Math.ceil(1_000 / size)) {
    return jsonResponse(400, {
      errors: [{ status: '400', code: 'page_beyond_search_window', title: 'Page beyond the search window' }],
    });
  }
  return jsonResponse(200, usersDocument(url, 1_000, 'gte'));
}

beforeEach(() => {
  requests.length = 0;
  countAnswer = new Promise((resolve) => {
    releaseCount = resolve;
  });
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
  it('says "more than 1,000" and offers the pages of the window only', async () => {
    renderPage();
    expect(await screen.findByText('1–25 of more than 1,000')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–25 of more than 1,000 users')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    const numbers = within(pages)
      .getAllByRole('button', { name: /^(Go to page|Page) \d+$/ })
      .map((button) => button.textContent);
    expect(numbers.at(-1)).toBe('40');
    expect(within(pages).queryByRole('button', { name: 'Go to page 41' })).toBeNull();
  });

  it('ends the window at its last page for a larger page size too', async () => {
    renderPage('/?search=example&pageSize=100&page=10');
    expect(await screen.findByText('901–1,000 of more than 1,000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
  });

  it('takes a link to a page beyond the window to the window’s last page, in place', async () => {
    renderPage('/?page=41&search=example');
    expect(await screen.findByText('976–1,000 of more than 1,000')).toBeInTheDocument();
    expect(locationRef.current?.search).toBe('?page=40&search=example');
    expect(screen.queryByText('There was an error loading the users. Please try again.')).toBeNull();
  });

  const countCalls = () => requests.filter((url) => url.searchParams.get('page[total]') === 'exact');
  const exactCount = (count: number) =>
    jsonResponse(200, {
      data: [],
      links: { self: '/', first: '/' },
      meta: { total_count: count, total_count_relation: 'eq' },
    });

  it('selects all matching users, says it is counting them, then says how many', async () => {
    const user = userEvent.setup();
    renderPage('/?search=example&status=active&page=2');
    await screen.findByRole('rowheader', { name: /User 026/ });
    await user.click(screen.getByRole('checkbox', { name: 'Select User 026' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(countCalls()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Select all matching users' }));
    const banner = screen.getByRole('region', { name: 'Counting matching users…' });
    expect(within(banner).getByRole('status')).toHaveTextContent('Counting matching users…');
    expect(within(banner).getByRole('progressbar', { name: 'Counting matching users…' })).toBeInTheDocument();
    expect(within(banner).queryByRole('button', { name: /^Select all/ })).toBeNull();
    // Every row of the page is ticked at once; the count is asked for the query, not its page.
    expect(screen.getByRole('checkbox', { name: 'Select User 027' })).toBeChecked();
    expect(Object.fromEntries(countCalls()[0]?.searchParams ?? [])).toEqual({
      'page[size]': '1',
      'filter[query]': 'example',
      'filter[status]': 'active',
      'page[total]': 'exact',
    });

    releaseCount(exactCount(EXACT));
    expect(await screen.findByText('All 512,345 users selected')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Counting matching users…' })).toBeNull();
    // The footer still pages through the window of the search.
    expect(screen.getByText('26–50 of more than 1,000')).toBeInTheDocument();

    // Unticking one counts from the exact number, never from the cap.
    await user.click(screen.getByRole('checkbox', { name: 'Select User 027' }));
    expect(screen.getByText('512,344 selected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Select all 512,345 users' })).toBeInTheDocument();
    expect(countCalls()).toHaveLength(1);
  });

  it('says when the count failed, and counts again on request', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    await user.click(screen.getByRole('button', { name: 'Select all matching users' }));
    releaseCount(jsonResponse(503, { errors: [{ status: '503', code: 'database_unavailable', title: 'x' }] }));
    expect(await screen.findByText('The matching users could not be counted.')).toBeInTheDocument();

    countAnswer = new Promise((resolve) => {
      releaseCount = resolve;
    });
    await user.click(screen.getByRole('button', { name: 'Count again' }));
    expect(await screen.findByText('Counting matching users…')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Count again' })).toBeNull();
    releaseCount(exactCount(EXACT));
    expect(await screen.findByText('All 512,345 users selected')).toBeInTheDocument();
    expect(countCalls()).toHaveLength(2);
  });

  it('clears the selection and its count when the query changes', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    await user.click(screen.getByRole('button', { name: 'Select all matching users' }));
    releaseCount(exactCount(EXACT));
    await screen.findByText('All 512,345 users selected');

    await user.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(locationRef.current?.search).toBe('?page=2&search=example'));
    await screen.findByRole('rowheader', { name: /User 026/ });
    expect(screen.queryByText(/selected/)).toBeNull();
    // The same search's count is known: choosing "select all" again says the number at once.
    await user.click(screen.getByRole('checkbox', { name: 'Select User 026' }));
    await user.click(screen.getByRole('button', { name: 'Select all 512,345 users' }));
    expect(screen.getByText('All 512,345 users selected')).toBeInTheDocument();
    expect(countCalls()).toHaveLength(1);
  });
});
