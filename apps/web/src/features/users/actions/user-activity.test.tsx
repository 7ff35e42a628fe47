import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonApi, ORG, stubActionsFetch } from '../../../testing/actions-fetch.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { UsersPage } from '../components/users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));
afterEach(() => vi.unstubAllGlobals());

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const event = (id: string, action: string, actor: string | null, after: object, minutes: number) => ({
  type: 'audit-events',
  id,
  attributes: {
    action,
    actor_id: actor && 'a1',
    actor_name: actor,
    user_id: 'u1',
    user_name: 'User 001',
    before: {},
    after,
    request_id: null,
    job_id: null,
    created_at: ago(minutes),
  },
});

describe("a user's recent activity", () => {
  it('says who did what, and when, newest first', async () => {
    const calls = stubActionsFetch(12, (call) =>
      call.url.pathname.endsWith('/audit-events')
        ? jsonApi(200, {
            data: [
              event('e3', 'set_user_type', 'Ada Admin', { is_system_admin: true }, 3),
              event('e2', 'accept_invitation', null, { status: 'active' }, 60 * 24),
              event('e1', 'invite', 'Ada Admin', { status: 'pending' }, 60 * 24 * 3),
            ],
            links: { self: '' },
          })
        : undefined,
    );
    renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />, { url: '/?user=u1' });
    const sheet = await screen.findByRole('dialog', { name: 'User 001' });
    const activity = await within(sheet).findByRole('region', { name: 'Recent activity' });
    const items = await within(activity).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Ada Admin changed the user type to System Admin · 3 minutes ago',
      'The user accepted the invitation · yesterday',
      'Ada Admin sent an invitation · 3 days ago',
    ]);
    const asked = calls.find((c) => c.url.pathname.endsWith('/audit-events'));
    expect(Object.fromEntries(asked?.url.searchParams ?? [])).toEqual({ 'filter[user_id]': 'u1', 'page[size]': '10' });
  });

  it('says when there is nothing yet, or when it could not be read', async () => {
    stubActionsFetch(12, (call) =>
      call.url.pathname.endsWith('/audit-events') ? jsonApi(200, { data: [], links: { self: '' } }) : undefined,
    );
    const first = renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />, { url: '/?user=u1' });
    expect(await screen.findByText('No changes yet.')).toBeInTheDocument();
    first.unmount();
    vi.unstubAllGlobals();

    stubActionsFetch(12, (call) => (call.url.pathname.endsWith('/audit-events') ? jsonApi(500, null) : undefined));
    renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />, { url: '/?user=u1' });
    expect(await screen.findByText('The activity could not be loaded.')).toBeInTheDocument();
  });
});
