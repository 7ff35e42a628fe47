import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Call, jsonApi, ORG, stubActionsFetch } from '../../../testing/actions-fetch.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { UsersPage } from '../components/users-page.tsx';

vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));
afterEach(() => vi.unstubAllGlobals());

const JOB_PATH = `/apis/accounts/api/v3/orgs/${ORG}/jobs/j1`;
const job = (status: string, processed: number, extra: object = {}) =>
  jsonApi(200, {
    data: {
      type: 'jobs',
      id: 'j1',
      attributes: {
        action: 'set_user_type',
        is_system_admin: true,
        status,
        total: 512_345,
        processed,
        done: processed,
        skipped: {},
        created_at: '2026-11-28T10:00:00Z',
        finished_at: null,
        ...extra,
      },
      links: { self: JOB_PATH, results: `${JOB_PATH}/results` },
    },
  });

/** A job over every match: queued, then running, then as `end` says once cancelled or after three polls. */
function jobServer(end: 'done' | 'cancelled') {
  let polls = 0;
  let cancelled = false;
  return (call: Call) => {
    if (call.method === 'POST' && call.url.pathname.endsWith('/users/bulk')) {
      return jsonApi(202, null, { location: JOB_PATH });
    }
    if (call.url.pathname !== JOB_PATH) return undefined;
    if (call.method === 'DELETE') {
      cancelled = true;
      return jsonApi(204, null);
    }
    polls++;
    if (cancelled) return job('cancelled', 120_000, { done: 119_999, skipped: { self: 1 } });
    if (end === 'done' && polls > 3) return job('done', 512_345, { done: 512_340, skipped: { third_party: 5 } });
    return polls === 1 ? job('queued', 0) : job('running', 120_000);
  };
}

async function changeTypeOfEveryMatch() {
  const user = userEvent.setup();
  renderWithProviders(<UsersPage orgId={ORG} homeUrl="/" launchpadUrl="/" />);
  await screen.findByRole('rowheader', { name: /User 001/ });
  await user.click(screen.getByRole('checkbox', { name: 'Select User 001' }));
  await user.click(await screen.findByRole('button', { name: 'Select all 512,345 users' }));
  await user.click(screen.getByRole('button', { name: 'Actions' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Change user type' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change the user type of all 512,345 matching users?' });
  await user.click(within(dialog).getByRole('button', { name: 'Change user type' }));
  return { user, dialog };
}

describe('an action over every match (a job)', () => {
  it('is asked by the list’s filters, shows its progress, then its result', async () => {
    const calls = stubActionsFetch(512_345, jobServer('done'));
    const { dialog } = await changeTypeOfEveryMatch();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      data: { type: 'bulk-actions', attributes: { action: 'set_user_type', is_system_admin: true, filter: '' } },
    });
    expect(await within(dialog).findByText('Changing 120,000 of 512,345 users…')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Progress' })).toHaveAttribute('aria-valuenow', '23');
    expect(await within(dialog).findByText('User type changed', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      /512,340.*Third-party users are managed by their identity provider, not here\.5/,
    );
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('stops on Cancel, and says what was done before it stopped', async () => {
    const calls = stubActionsFetch(512_345, jobServer('cancelled'));
    const { user, dialog } = await changeTypeOfEveryMatch();
    await within(dialog).findByText('Changing 120,000 of 512,345 users…');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(
      await within(dialog).findByText('Cancelled: the users not reached yet were left as they were.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname)).toEqual([JOB_PATH]);
    expect(within(dialog).getByRole('status')).toHaveTextContent(/User type changed119,999/);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
