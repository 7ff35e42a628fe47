import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, jsonApi, ORG, refusal, stubActionsFetch } from '../../../testing/actions-fetch.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { UsersPage } from '../components/users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));
afterEach(() => vi.unstubAllGlobals());

const isBulk = (call: Call) => call.method === 'POST' && call.url.pathname.endsWith('/users/bulk');
const listCalls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url.pathname.endsWith('/users'));

async function openPage() {
  const user = userEvent.setup();
  renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />);
  await screen.findByRole('rowheader', { name: /User 001/ });
  return user;
}

async function choose(user: ReturnType<typeof userEvent.setup>, action: string) {
  await user.click(screen.getByRole('button', { name: 'Actions' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  return screen.findByRole('dialog');
}

describe('bulk actions', () => {
  it('remove the selected users after a confirmation, then say what was done and skipped, and why', async () => {
    const calls = stubActionsFetch(12, (call) =>
      isBulk(call)
        ? jsonApi(200, {
            data: {
              type: 'bulk-results',
              attributes: {
                action: 'remove',
                done: 2,
                skipped: 1,
                results: [
                  { id: 'u1', result: 'done' },
                  { id: 'u2', result: 'skipped', reason: 'self', detail: 'You cannot remove yourself.' },
                  { id: 'u3', result: 'done' },
                ],
              },
            },
          })
        : undefined,
    );
    const user = await openPage();
    for (const n of [1, 2, 3]) await user.click(screen.getByRole('checkbox', { name: `Select User 00${n}` }));

    const dialog = await choose(user, 'Remove users');
    expect(dialog).toHaveAccessibleName('Remove 3 users?');
    expect(dialog).toHaveAccessibleDescription(/They leave the organisation/);
    const listsBefore = listCalls(calls).length;
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await screen.findByText('Users removed');
    expect(calls.find(isBulk)?.body).toEqual({
      data: { type: 'bulk-actions', attributes: { action: 'remove', ids: ['u1', 'u2', 'u3'] } },
    });
    const result = screen.getByRole('dialog', { name: 'Remove users' });
    expect(within(result).getByRole('status')).toHaveTextContent(
      /Users removed2Users left as they were1.*You cannot disable, remove or demote yourself\.1/,
    );
    // The list and its totals are read again; the selection has served.
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(listsBefore));
    expect(screen.queryByText(/selected/)).toBeNull();

    await user.click(within(result).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
  });

  it('change the user type to the type chosen in the dialog', async () => {
    const calls = stubActionsFetch(12, (call) =>
      isBulk(call)
        ? jsonApi(200, {
            data: {
              type: 'bulk-results',
              attributes: { action: 'set_user_type', done: 1, skipped: 0, results: [{ id: 'u1', result: 'done' }] },
            },
          })
        : undefined,
    );
    const user = await openPage();
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    const dialog = await choose(user, 'Change user type');
    expect(dialog).toHaveAccessibleName('Change the user type of 1 user?');
    const types = within(dialog).getByRole('radiogroup', { name: 'New user type' });
    expect(within(types).getByRole('radio', { name: 'System Admin' })).toBeChecked();
    await user.click(within(types).getByRole('radio', { name: 'User' }));
    await user.click(within(dialog).getByRole('button', { name: 'Change user type' }));
    await screen.findByText('User type changed');
    expect(calls.find(isBulk)?.body).toMatchObject({
      data: { attributes: { action: 'set_user_type', is_system_admin: false, ids: ['u1'] } },
    });
  });

  it('offer Disable and Enable, and Cancel changes nothing', async () => {
    const calls = stubActionsFetch(12, () => undefined);
    const user = await openPage();
    await user.click(screen.getByRole('checkbox', { name: 'Select User 004' }));
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Change user type',
      'Disable users',
      'Enable users',
      'Remove users',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Enable users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enable 1 user?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some(isBulk)).toBe(false);
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it('say a refusal in words and keep the question open', async () => {
    stubActionsFetch(12, (call) => (isBulk(call) ? refusal(403, 'forbidden') : undefined));
    const user = await openPage();
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    const dialog = await choose(user, 'Disable users');
    await user.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(
      await within(dialog).findByText(/only a System Admin of the organisation can act on its users/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Disable' })).toBeEnabled();
  });

  it('invite only the selected users who are pending', async () => {
    const calls = stubActionsFetch(12, (call) =>
      isBulk(call)
        ? jsonApi(200, {
            data: {
              type: 'bulk-results',
              attributes: { action: 'invite', done: 1, skipped: 0, results: [{ id: 'u2', result: 'done' }] },
            },
          })
        : undefined,
    );
    const user = await openPage();
    // User 001 is active, User 002 pending, User 003 inactive.
    for (const n of [1, 2, 3]) await user.click(screen.getByRole('checkbox', { name: `Select User 00${n}` }));
    const dialog = await choose(user, 'Invite pending users');
    expect(dialog).toHaveAccessibleName('Resend the invitation to 1 pending user?');
    await user.click(within(dialog).getByRole('button', { name: 'Resend invitations' }));
    await screen.findByText('Invitations sent');
    expect(calls.find(isBulk)?.body).toEqual({
      data: { type: 'bulk-actions', attributes: { action: 'invite', ids: ['u2'] } },
    });
  });

  it('are not offered over every match once some were unticked: a filter cannot leave them out', async () => {
    const calls = stubActionsFetch(12, () => undefined);
    const user = await openPage();
    await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 12 users' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select User 002' }));
    const dialog = await choose(user, 'Remove users');
    expect(within(dialog).getByText(/cannot be left out of an action on every matching user/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(calls.some(isBulk)).toBe(false);
  });
});
