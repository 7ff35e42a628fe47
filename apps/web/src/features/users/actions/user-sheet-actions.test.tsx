import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, jsonApi, ORG, refusal, stubActionsFetch } from '../../../testing/actions-fetch.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { demoUser } from '../../../testing/users-fixtures.ts';
import { UsersPage } from '../components/users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));
afterEach(() => vi.unstubAllGlobals());

const USER_1 = `/apis/accounts/api/v3/orgs/${ORG}/users/u1`;
const changed = (attributes: object) => {
  const user = demoUser(1);
  return jsonApi(200, { data: { ...user, attributes: { ...user.attributes, ...attributes } } }, { etag: '"8"' });
};
const isWrite = (call: Call) => ['PATCH', 'DELETE'].includes(call.method) && call.url.pathname === USER_1;

async function openSheet(path = '/?user=u1', name = 'User 001') {
  const user = userEvent.setup();
  renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />, { url: path });
  const sheet = await screen.findByRole('dialog', { name });
  await within(sheet).findByRole('heading', { name: 'Actions' });
  return { user, sheet };
}

async function confirmIn(user: ReturnType<typeof userEvent.setup>, question: string, button: string) {
  const dialog = await screen.findByRole('dialog', { name: question });
  await user.click(within(dialog).getByRole('button', { name: button }));
  return dialog;
}

describe("a user's actions in their sheet", () => {
  it('disable the user against the version read, then say so, focus back on the button', async () => {
    // As the server would: once disabled, the user is read as disabled.
    let disabled = false;
    const calls = stubActionsFetch(12, (call) => {
      if (isWrite(call)) disabled = true;
      return disabled && call.url.pathname === USER_1 ? changed({ status: 'disabled' }) : undefined;
    });
    const { user, sheet } = await openSheet();
    await user.click(within(sheet).getByRole('button', { name: 'Disable user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable User 001?' });
    expect(dialog).toHaveAccessibleDescription(/can no longer sign in to this organisation/);
    await user.click(within(dialog).getByRole('button', { name: 'Disable user' }));
    expect(await within(sheet).findByText('User disabled.')).toBeInTheDocument();
    const patch = calls.find(isWrite);
    expect(patch?.headers['If-Match']).toBe('"7"');
    expect(patch?.body).toEqual({ data: { type: 'users', id: 'u1', attributes: { status: 'disabled' } } });
    // The sheet shows the user as the answer says, and offers to enable them in the same place.
    const enable = await within(sheet).findByRole('button', { name: 'Enable user' });
    await waitFor(() => expect(enable).toHaveFocus());
    expect(sheet).toHaveTextContent('Contact support');
  });

  it('change the user type, offering the other type first', async () => {
    const calls = stubActionsFetch(12, (call) => (isWrite(call) ? changed({ is_system_admin: true }) : undefined));
    const { user, sheet } = await openSheet();
    await user.click(within(sheet).getByRole('button', { name: 'Change user type' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the user type of User 001?' });
    expect(within(dialog).getByRole('radio', { name: 'System Admin' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Change user type' }));
    expect(await within(sheet).findByText('User type changed.')).toBeInTheDocument();
    expect(calls.find(isWrite)?.body).toMatchObject({ data: { attributes: { is_system_admin: true } } });
  });

  it('say that the user changed meanwhile (412), and read them again', async () => {
    const calls = stubActionsFetch(12, (call) => (isWrite(call) ? refusal(412, 'precondition_failed') : undefined));
    const { user, sheet } = await openSheet();
    const reads = () => calls.filter((c) => c.method === 'GET' && c.url.pathname === USER_1).length;
    expect(reads()).toBe(1);
    await user.click(within(sheet).getByRole('button', { name: 'Remove from organisation' }));
    await confirmIn(user, 'Remove User 001 from the organisation?', 'Remove from organisation');
    expect(await within(sheet).findByRole('alert')).toHaveTextContent(
      'This user was changed meanwhile. They are now shown as they are: check, then try again.',
    );
    await waitFor(() => expect(reads()).toBe(2));
  });

  it('say why a rule refused the change (409), in words', async () => {
    stubActionsFetch(12, (call) => (isWrite(call) ? refusal(409, 'last_system_admin', 'Keep one.') : undefined));
    const { user, sheet } = await openSheet();
    await user.click(within(sheet).getByRole('button', { name: 'Disable user' }));
    await confirmIn(user, 'Disable User 001?', 'Disable user');
    expect(await within(sheet).findByRole('alert')).toHaveTextContent(
      'The organisation must keep at least one active System Admin.',
    );
  });

  it('remove the user from the organisation and close the sheet', async () => {
    const calls = stubActionsFetch(12, (call) => (isWrite(call) ? jsonApi(204, null) : undefined));
    const { user, sheet } = await openSheet();
    await user.click(within(sheet).getByRole('button', { name: 'Remove from organisation' }));
    await confirmIn(user, 'Remove User 001 from the organisation?', 'Remove from organisation');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find(isWrite)).toMatchObject({ method: 'DELETE', headers: { 'If-Match': '"7"' } });
  });

  it("send the invitation from the status field's link", async () => {
    const calls = stubActionsFetch(12, (call) =>
      call.method === 'POST' ? jsonApi(201, { data: { type: 'invitations', id: 'i', attributes: {} } }) : undefined,
    );
    const { user, sheet } = await openSheet('/?user=u2', 'User 002');
    await user.click(within(sheet).getByRole('button', { name: 'Resend invitation' }));
    expect(
      await within(sheet).findByText('Invitation sent again to User 002: the link sent before no longer works.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      `/apis/accounts/api/v3/orgs/${ORG}/users/u2/invitation`,
    ]);
  });

  it('offer only a change of type for a third-party user', async () => {
    stubActionsFetch(12, () => undefined);
    const { sheet } = await openSheet('/?user=u5', 'User 005');
    const section = within(sheet).getByRole('region', { name: 'Actions' });
    expect(
      within(section)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Change user type']);
  });
});
