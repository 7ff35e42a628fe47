import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserColumn } from '@users-admin/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locationRef, renderWithProviders } from '../../../testing/render.tsx';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const PREFERENCES = `/apis/accounts/api/v3/orgs/${ORG}/preferences`;
const listRequests: URL[] = [];
const saves: unknown[] = [];
let saved: UserColumn[];
let saveStatus: number;
let holdPreferences: Promise<void>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/vnd.api+json' } });
const preferences = (columns: UserColumn[]) => ({
  data: { type: 'preferences', id: 'admin', attributes: { users_columns: columns } },
});

beforeEach(() => {
  listRequests.length = 0;
  saves.length = 0;
  saved = ['data_source', 'status', 'user_type'];
  saveStatus = 200;
  holdPreferences = Promise.resolve();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === PREFERENCES && init.method === 'PATCH') {
        const body = JSON.parse(String(init.body));
        saves.push({ body, contentType: (init.headers as Record<string, string>)['Content-Type'] });
        if (saveStatus !== 200) return json(saveStatus, { errors: [{ status: String(saveStatus) }] });
        saved = body.data.attributes.users_columns;
        return json(200, preferences(saved));
      }
      if (url.pathname === PREFERENCES) {
        await holdPreferences;
        return json(200, preferences(saved));
      }
      listRequests.push(url);
      return json(200, usersDocument(url, 12));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderPage = (url = '/') =>
  renderWithProviders(
    <UsersPage orgId={ORG} homeUrl="https://home.example/" launchpadUrl="https://launch.example/" />,
    {
      url,
    },
  );
// Hidden: while a menu is open, the page behind it is hidden from screen readers.
const headers = () => screen.getAllByRole('columnheader', { hidden: true }).map((header) => header.textContent);

describe('the data source and last sign-in filters', () => {
  it('are read from the URL, asked of the API and counted in the badge', async () => {
    renderPage('/?isExternal=true&lastSignIn=not90d&page=2');
    await screen.findByRole('rowheader', { name: /User 001/ });
    expect(Object.fromEntries(listRequests[0]?.searchParams ?? [])).toEqual({
      'filter[is_external]': 'true',
      'filter[last_sign_in]': 'not90d',
      'page[number]': '2',
    });
    expect(screen.getByRole('button', { name: 'Filter, 2 active filters' })).toBeInTheDocument();
  });

  it('are chosen in the popover, go back to page 1 and are cleared by Clear all', async () => {
    const user = userEvent.setup();
    renderPage('/?page=2&status=active');
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Filter, 1 active filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Filters' });

    await user.click(within(dialog).getByRole('combobox', { name: 'Data source' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All',
      'Platform',
      'Third party',
    ]);
    await user.click(screen.getByRole('option', { name: 'Third party' }));
    expect(locationRef.current?.search).toBe('?status=active&isExternal=true');

    await user.click(within(dialog).getByRole('combobox', { name: 'Last sign-in' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Any time',
      'In the last 30 days',
      'Not in the last 90 days',
      'Never',
    ]);
    await user.click(screen.getByRole('option', { name: 'In the last 30 days' }));
    expect(locationRef.current?.search).toBe('?status=active&isExternal=true&lastSignIn=30d');
    await waitFor(() => expect(listRequests.at(-1)?.searchParams.get('filter[last_sign_in]')).toBe('30d'));
    expect(listRequests.at(-1)?.searchParams.get('filter[is_external]')).toBe('true');
    expect(screen.getByRole('button', { name: 'Filter, 3 active filters', hidden: true })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: 'Data source' }));
    await user.click(screen.getByRole('option', { name: 'All' }));
    expect(locationRef.current?.search).toBe('?status=active&lastSignIn=30d');

    await user.click(within(dialog).getByRole('button', { name: 'Clear all' }));
    expect(locationRef.current?.search).toBe('');
  });
});

describe('the chosen columns', () => {
  it('shows the columns saved for the administrator, and no rows before they are known', async () => {
    saved = ['status', 'last_sign_in'];
    let release = () => {};
    holdPreferences = new Promise((resolve) => {
      release = resolve;
    });
    renderPage();
    await waitFor(() => expect(listRequests).toHaveLength(1));
    // The list has answered, the columns not yet: the table is still loading.
    expect(await screen.findByRole('progressbar', { name: 'Loading users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Columns' })).toBeDisabled();
    expect(screen.queryAllByRole('columnheader', { hidden: true })).toHaveLength(0);
    release();
    await waitFor(() => expect(headers()).toEqual(['', 'User', 'Status', 'Last sign-in']));
    expect(screen.queryByRole('progressbar', { name: 'Loading users' })).toBeNull();
  });

  it('shows SPEC.md’s columns when the preferences cannot be read', async () => {
    vi.mocked(fetch).mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === PREFERENCES) return json(500, { errors: [{ status: '500' }] });
      return json(200, usersDocument(url, 12));
    });
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'User type']);
  });

  it('shows and hides a column as it is chosen in the Columns menu, and saves the choice', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu', { name: 'Columns' });
    const choices = within(menu).getAllByRole('menuitemcheckbox');
    expect(choices.map((choice) => [choice.textContent, choice.getAttribute('aria-checked')])).toEqual([
      ['User', 'true'],
      ['Data source', 'true'],
      ['Status', 'true'],
      ['User type', 'true'],
      ['Last sign-in', 'false'],
      ['Created', 'false'],
    ]);
    expect(choices[0]).toHaveAttribute('aria-disabled', 'true');

    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Last sign-in' }));
    expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'User type', 'Last sign-in']);
    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Data source' }));
    expect(headers()).toEqual(['', 'User', 'Status', 'User type', 'Last sign-in']);
    expect(within(menu).getByRole('menuitemcheckbox', { name: 'Data source' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await waitFor(() => expect(saved).toEqual(['status', 'user_type', 'last_sign_in']));
    expect(saves[0]).toEqual({
      body: {
        data: {
          type: 'preferences',
          attributes: { users_columns: ['data_source', 'status', 'user_type', 'last_sign_in'] },
        },
      },
      contentType: 'application/vnd.api+json',
    });
    // The menu stays open for the next choice.
    expect(screen.getByRole('menu', { name: 'Columns' })).toBeInTheDocument();
  });

  it('keeps every choice made in quick succession, and saves the last', async () => {
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu', { name: 'Columns' });
    // Both in the same moment, before the page has drawn the first.
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'Created' }));
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'User type' }));
    await waitFor(() => expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'Created']));
    await waitFor(() => expect(saved).toEqual(['data_source', 'status', 'created']));
    expect(saves).toHaveLength(2);
  });

  it('puts the columns back and says so when the choice cannot be saved', async () => {
    const user = userEvent.setup();
    saveStatus = 500;
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu', { name: 'Columns' });
    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Created' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The columns could not be saved. Please try again.');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'User type']);
  });
});
