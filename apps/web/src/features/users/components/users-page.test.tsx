import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_USER_COLUMNS } from '@users-admin/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locationRef, renderWithProviders } from '../../../testing/render.tsx';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

// Over 300 lines: the page's behaviours share one mocked client and one way to render the page.

// A refused call would renew the session in a hidden frame; here it "succeeds" at once.
vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
type Handler = (url: URL) => Response;
let handler: Handler;
const requests: URL[] = [];

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/vnd.api+json' } });
const withTotal =
  (total: number): Handler =>
  (url) =>
    jsonResponse(200, usersDocument(url, total));

beforeEach(() => {
  requests.length = 0;
  // A small organisation keeps most tests fast; the first test renders a full page of 25.
  handler = withTotal(12);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      // The chosen columns: SPEC.md's; users-page.columns.test.tsx tests them.
      if (url.pathname.endsWith('/preferences')) {
        return jsonResponse(200, {
          data: { type: 'preferences', attributes: { users_columns: [...DEFAULT_USER_COLUMNS] } },
        });
      }
      requests.push(url);
      return handler(url);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const renderPage = (url = '/') =>
  renderWithProviders(
    <UsersPage orgId={ORG} homeUrl="https://home.example/" launchpadUrl="https://launch.example/" />,
    {
      url,
    },
  );
const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('Users page', () => {
  it('shows the first page of users with the header, columns and pagination', async () => {
    handler = withTotal(422);
    renderPage();
    expect(await screen.findByRole('rowheader', { name: /User 001/ })).toBeInTheDocument();

    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', 'https://home.example/');
    expect(screen.getByRole('link', { name: 'Back to the launchpad' })).toHaveAttribute(
      'href',
      'https://launch.example/',
    );
    expect(screen.getByRole('searchbox', { name: 'Search name or email' })).toHaveAttribute(
      'placeholder',
      'Search name or email',
    );
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['', 'User', 'Data source', 'Status', 'User type']);
    expect(screen.getByRole('button', { name: 'More about Status' })).toBeInTheDocument();

    expect(bodyRows()).toHaveLength(25);
    expect(await screen.findByText('1–25 of 422')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–25 of 422 users');

    const [first, second, , , fifth, , seventh] = bodyRows();
    expect(within(first as HTMLElement).getByText('U1')).toBeInTheDocument();
    expect(first).toHaveTextContent('user.1@acme.example');
    expect(first).toHaveTextContent('Platform');
    expect(first).toHaveTextContent('Active');
    expect(within(first as HTMLElement).queryByRole('button', { name: /invitation|support/ })).toBeNull();
    expect(within(second as HTMLElement).getByRole('button', { name: 'Resend invitation' })).toBeInTheDocument();
    // The external user: 'Third party', and a checkbox that cannot be ticked.
    expect(fifth).toHaveTextContent('Third party');
    expect(within(fifth as HTMLElement).getByRole('checkbox', { name: 'Select User 005' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(seventh).toHaveTextContent('System Admin');

    expect(requests[0]?.pathname).toBe(`/apis/accounts/api/v3/orgs/${ORG}/users`);
    expect(requests[0]?.search).toBe('');
  });

  it('asks for what the URL says', async () => {
    handler = withTotal(60);
    renderPage('/?page=2&pageSize=50&sort=-name&search=ann&status=pending&isSystemAdmin=true');
    await screen.findByRole('rowheader', { name: /User 051/ });
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toEqual({
      'page[size]': '50',
      'page[number]': '2',
      sort: '-name',
      'filter[query]': 'ann',
      'filter[status]': 'pending',
      'filter[is_system_admin]': 'true',
    });
    expect(screen.getByRole('searchbox')).toHaveValue('ann');
    expect(screen.getByRole('button', { name: 'Filter, 2 active filters' })).toBeInTheDocument();
    const sortButton = screen.getByRole('button', { name: 'User, sorted Z to A' });
    expect(sortButton.closest('th')).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts by name on the first click of the User header, and writes it to the URL', async () => {
    const user = userEvent.setup();
    handler = withTotal(60);
    renderPage('/?page=3');
    await screen.findByRole('rowheader', { name: /User 051/ });
    await user.click(screen.getByRole('button', { name: 'User' }));
    await waitFor(() => expect(locationRef.current?.search).toBe('?sort=name'));
    await waitFor(() => expect(requests.at(-1)?.searchParams.get('sort')).toBe('name'));
  });

  it('searches 300 ms after typing, and a new search returns to page 1', async () => {
    const user = userEvent.setup();
    handler = withTotal(30);
    renderPage('/?page=2');
    await screen.findByRole('rowheader', { name: /User 026/ });
    await user.type(screen.getByRole('searchbox'), 'ann');
    expect(locationRef.current?.search).toBe('?page=2');
    await waitFor(() => expect(locationRef.current?.search).toBe('?search=ann'));
    await waitFor(() => expect(requests.at(-1)?.searchParams.get('filter[query]')).toBe('ann'));
  });

  it('searches at once on Enter, and the clear button removes the search', async () => {
    const user = userEvent.setup();
    renderPage('/?search=old');
    await screen.findByRole('rowheader', { name: /User 001/ });
    const box = screen.getByRole('searchbox');
    await user.clear(box);
    await user.type(box, 'ann{Enter}');
    expect(locationRef.current?.search).toBe('?search=ann');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(locationRef.current?.search).toBe('');
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
  });

  it('filters by status and user type from the filter popover, and clears them', async () => {
    const user = userEvent.setup();
    renderPage('/?page=1&sort=name');
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });
    expect(within(dialog).getByRole('button', { name: 'Clear all' })).toBeDisabled();

    await user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All',
      'Active',
      'Inactive',
      'Pending',
    ]);
    await user.click(screen.getByRole('option', { name: 'Pending' }));
    expect(locationRef.current?.search).toBe('?status=pending&sort=name');

    await user.click(within(dialog).getByRole('combobox', { name: 'User type' }));
    await user.click(screen.getByRole('option', { name: 'System Admin' }));
    expect(locationRef.current?.search).toBe('?status=pending&isSystemAdmin=true&sort=name');
    await waitFor(() => expect(requests.at(-1)?.searchParams.get('filter[is_system_admin]')).toBe('true'));

    await user.click(within(dialog).getByRole('button', { name: 'Clear all' }));
    expect(locationRef.current?.search).toBe('?sort=name');
  });

  it('selects the page, then all users, and clears the selection', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });

    await user.click(screen.getByRole('checkbox', { name: 'Select User 002' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all users on this page' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );

    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    // Users 5 and 10 are third-party: 10 of the 12 can be selected.
    expect(screen.getByText('10 selected (all on this page)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Select all 12 users' }));
    expect(screen.getByText('All 12 users selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/selected/)).toBeNull();
  });

  it('lets the keyboard reach a third-party user’s checkbox and its reason, but never tick it', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    // Queried each time: the tooltip's arrival mounts the checkbox anew.
    const external = () => screen.getByRole('checkbox', { name: 'Select User 005' });
    // Focusable (no `disabled`), announced as unavailable, and described by the reason at once.
    expect(external()).not.toBeDisabled();
    expect(external()).toHaveAttribute('aria-disabled', 'true');
    expect(external()).toHaveAccessibleDescription('You cannot select Third party users');

    // From the previous row's last control (User 004 is disabled: "Contact support"), one Tab.
    const [, , , fourth] = bodyRows();
    within(fourth as HTMLElement)
      .getByRole('button', { name: 'Contact support' })
      .focus();
    await user.tab();
    // (The tooltip opening on this focus is proved in Chromium, users-selection.spec.ts: jsdom does
    // not match :focus-visible after a Tab, which MUI's Tooltip asks for.)
    await waitFor(() => expect(external()).toHaveFocus());
    expect(external()).toHaveAccessibleDescription('You cannot select Third party users');

    await user.keyboard(' ');
    await user.click(external());
    expect(external()).not.toBeChecked();
    expect(screen.queryByText(/selected/)).toBeNull();

    // The page checkbox still leaves third-party users out: 10 of the 12.
    await user.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    expect(screen.getByText('10 selected (all on this page)')).toBeInTheDocument();
    expect(external()).not.toBeChecked();
  });

  it('offers "Invite pending users" only when a selected user is pending', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(await screen.findByRole('menuitem', { name: 'Change user type' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Invite pending users' })).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('checkbox', { name: 'Select User 002' }));
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(await screen.findByRole('menuitem', { name: 'Invite pending users' })).toBeInTheDocument();
  });

  it('explains that users must be selected before an action', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove users' }));
    expect(await screen.findByText('Select users before making any actions.')).toBeInTheDocument();
  });

  it('clears the selection when the URL query changes', async () => {
    const user = userEvent.setup();
    handler = withTotal(30);
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(locationRef.current?.search).toBe('?page=2'));
    expect(screen.queryByText('1 selected')).toBeNull();
  });

  it('says "No results found" when the organisation has no users', async () => {
    handler = withTotal(0);
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No results found' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the search matched nothing', async () => {
    handler = withTotal(0);
    renderPage('/?search=zed');
    expect(
      await screen.findByText(
        'No results found. Your search for “zed” did not return any results. Try expanding your search or changing the search filters.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the error alert when the list cannot be loaded', async () => {
    handler = () => jsonResponse(500, { errors: [{ status: '500', code: 'internal', title: 'Internal error' }] });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There was an error loading the users. Please try again.',
    );
  });

  it('shows the unauthorized state when the list is refused after renewing the session', async () => {
    handler = () => jsonResponse(403, { errors: [{ status: '403', code: 'forbidden', title: 'Forbidden' }] });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(
      screen.getByText("It looks like there's a problem. Please try again or contact our support team."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', 'https://home.example/');
    expect(requests).toHaveLength(2);
  });
});
