import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, jsonApi, ORG, refusal, stubActionsFetch } from '../../../testing/actions-fetch.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { UsersPage } from '../components/users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const isInvitation = (call: Call) => call.method === 'POST' && call.url.pathname.endsWith('/invitation');
const invitation = (userId: string) =>
  jsonApi(201, {
    data: {
      type: 'invitations',
      id: 'i1',
      attributes: {
        user_id: userId,
        email: 'x',
        expires_at: '2026-12-05T10:00:00Z',
        created_at: '2026-11-28T10:00:00Z',
      },
    },
  });

async function openPage(supportUrl?: string) {
  const user = userEvent.setup();
  renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" supportUrl={supportUrl} />);
  await screen.findByRole('rowheader', { name: /User 001/ });
  return user;
}
// demoUser: 2 is pending (Resend invitation), 3 inactive (Send invitation), 4 disabled (Contact support).
const linkOf = (name: string, row: number) => screen.getAllByRole('button', { name })[row] as HTMLElement;

describe("a row's links", () => {
  it('send an invitation, say so, and the list is read again', async () => {
    const calls = stubActionsFetch(12, (call) => (isInvitation(call) ? invitation('u3') : undefined));
    const user = await openPage();
    const lists = calls.length;
    await user.click(linkOf('Send invitation', 0));
    const sent = await screen.findByText('Invitation sent to User 003.');
    // Said to screen readers, politely.
    expect(sent.closest('[role="status"]')).not.toBeNull();
    expect(calls.filter(isInvitation).map((c) => c.url.pathname)).toEqual([
      `/apis/accounts/api/v3/orgs/${ORG}/users/u3/invitation`,
    ]);
    await waitFor(() => expect(calls.length).toBeGreaterThan(lists + 1));
  });

  it('resend an invitation, and say that the old link no longer works', async () => {
    stubActionsFetch(12, (call) => (isInvitation(call) ? invitation('u2') : undefined));
    const user = await openPage();
    await user.click(linkOf('Resend invitation', 0));
    expect(
      await screen.findByText('Invitation sent again to User 002: the link sent before no longer works.'),
    ).toBeInTheDocument();
  });

  it('say in words that a user was invited less than a minute ago (429)', async () => {
    stubActionsFetch(12, (call) => (isInvitation(call) ? refusal(429, 'recently_invited') : undefined));
    const user = await openPage();
    await user.click(linkOf('Resend invitation', 0));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The invitation to User 002 was not sent. Invited less than a minute ago: please wait a minute, then try again.',
    );
  });

  it("open SUPPORT_URL for a disabled user's Contact support, and make no call", async () => {
    const calls = stubActionsFetch(12, () => undefined);
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const user = await openPage('https://support.acme.example/');
    const before = calls.length;
    await user.click(linkOf('Contact support', 0));
    expect(open).toHaveBeenCalledWith('https://support.acme.example/', '_blank', 'noopener,noreferrer');
    expect(calls).toHaveLength(before);
  });
});
