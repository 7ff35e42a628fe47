import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locationRef, renderWithProviders } from '../../../testing/render.tsx';
import { demoUser, usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const JSON_API = { 'content-type': 'application/vnd.api+json' };

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      const one = /\/users\/([^/]+)$/.exec(url.pathname)?.[1];
      if (one === 'u404') {
        const error = { errors: [{ status: '404', code: 'not_found', title: 'Not found' }] };
        return new Response(JSON.stringify(error), { status: 404, headers: JSON_API });
      }
      if (one) return new Response(JSON.stringify({ data: demoUser(Number(one.slice(1))) }), { headers: JSON_API });
      return new Response(JSON.stringify(usersDocument(url, 60)), { headers: JSON_API });
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

describe("a user's side sheet", () => {
  it("opens from the user's name, says who they are, and closes with Escape, focus back on the name", async () => {
    renderPage('/?page=2');
    const name = await screen.findByRole('link', { name: 'User 027' });
    expect(name).toHaveAttribute('href', '?user=u27');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select User 026' }));
    await userEvent.click(name);

    const sheet = await screen.findByRole('dialog', { name: 'User 027' });
    expect(new URLSearchParams(locationRef.current?.search)).toEqual(new URLSearchParams('page=2&user=u27'));
    expect(sheet).toHaveTextContent('user.27@acme.example');
    expect(sheet).toHaveTextContent('Resend invitation');
    expect(sheet).toHaveTextContent('User');
    expect(sheet).toHaveTextContent('Platform');
    expect(sheet).toHaveTextContent('u27');
    expect(screen.getByRole('button', { name: 'Copy ID' })).toBeInTheDocument();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(locationRef.current?.search).toBe('?page=2');
    expect(screen.getByRole('link', { name: 'User 027' })).toHaveFocus();
    // The page and its selection are as they were.
    expect(screen.getByRole('checkbox', { name: 'Select User 026' })).toBeChecked();
  });

  it('opens from a link to it, and says so in words when the user is not there', async () => {
    const first = renderPage('/?user=u4');
    expect(await screen.findByRole('dialog', { name: 'User 004' })).toHaveTextContent('Never');
    first.unmount();

    renderPage('/?user=u404');
    expect(
      await screen.findByText('This user is not in your organisation. They may have been removed.'),
    ).toBeInTheDocument();
  });
});
