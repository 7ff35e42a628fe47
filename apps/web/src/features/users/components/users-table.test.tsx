import { act, render, screen, within } from '@testing-library/react';
import { DEFAULT_USER_COLUMNS, USER_COLUMNS, type UserColumn } from '@users-admin/contract';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { switchLanguage } from '../../../app/i18n.ts';
import { demoUser } from '../../../testing/users-fixtures.ts';
import { toUser } from '../api/get-users.ts';
import { EMPTY_SELECTION } from '../model/selection.ts';
import { preloadTimeCells } from './user-row.tsx';
import { UsersTable } from './users-table.tsx';

// The rows' texts are translated once for the table (useRowTexts), not in each row.
afterEach(async () => {
  await act(() => switchLanguage('en'));
});

const users = [1, 2, 5, 7].map((n) => toUser(demoUser(n)));
const ignore = () => undefined;
const renderTable = (columns: readonly UserColumn[] = DEFAULT_USER_COLUMNS) =>
  render(
    <UsersTable
      users={users}
      columns={columns}
      selection={EMPTY_SELECTION}
      sort={undefined}
      onToggleRow={ignore}
      onTogglePage={ignore}
      onToggleSort={ignore}
      onOpenUser={ignore}
      onRowAction={ignore}
    />,
  );

function cellsOf(name: string) {
  const row = screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr') as HTMLElement;
  return {
    text: row.textContent,
    checkbox: within(row).getByRole('checkbox'),
  };
}

describe('the rows of the users table', () => {
  it('say each user’s status, data source, user type and row action, and name the row’s checkbox', () => {
    renderTable();
    // User 002 is pending (row action: resend the invitation); User 005 is a third party's; User 007 a System Admin.
    expect(cellsOf('User 001').text).toContain('Active');
    expect(cellsOf('User 002').text).toContain('Pending');
    expect(cellsOf('User 002').text).toContain('Resend invitation');
    expect(cellsOf('User 005').text).toContain('Third party');
    expect(cellsOf('User 007').text).toContain('System Admin');
    expect(cellsOf('User 001').checkbox).toHaveAccessibleName('Select User 001');
  });

  it('follow a change of language without being drawn anew from outside', async () => {
    renderTable();
    expect(cellsOf('User 001').text).toContain('Active');

    await act(() => switchLanguage('de'));

    expect(cellsOf('User 001').text).toContain('Aktiv');
    expect(cellsOf('User 002').text).toContain('Ausstehend');
    expect(cellsOf('User 005').text).toContain('Extern');
    expect(cellsOf('User 001').checkbox).toHaveAccessibleName('User 001 auswählen');
  });
});

describe('the chosen columns of the users table', () => {
  // Their code loads apart; the page loads it before it draws them (main.tsx).
  beforeAll(() => preloadTimeCells());
  const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

  it('shows SPEC.md’s columns by default, and only the chosen ones', () => {
    const { unmount } = renderTable();
    expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'User type']);
    unmount();
    renderTable(['status', 'created']);
    expect(headers()).toEqual(['', 'User', 'Status', 'Created']);
    expect(screen.getAllByRole('row')[1]?.querySelectorAll('td, th')).toHaveLength(4);
  });

  it('says the last sign-in relative to now, with the exact time for screen readers, or Never', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 4), toFake: ['Date'] });
    try {
      renderTable([...USER_COLUMNS]);
      expect(headers()).toEqual(['', 'User', 'Data source', 'Status', 'User type', 'Last sign-in', 'Created']);
      // User 001 signed in an hour before the fixture's day; User 004 never did (users-fixtures.ts).
      const cells = (name: string) => [...(cellsRow(name)?.querySelectorAll('td') ?? [])].map((c) => c.textContent);
      expect(cells('User 001').at(-2)).toBe('3 days ago, October 31, 2026 at 11:00 PM UTC');
      expect(cells('User 001').at(-1)).toBe('Jan 2, 2024');
      expect(screen.getAllByRole('row')[1]?.querySelector('time')).toHaveAttribute(
        'datetime',
        '2026-10-31T23:00:00.000Z',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('says Never for a user who never signed in, and tells the chosen columns under the e-mail for narrow screens', () => {
    const never = toUser({ ...demoUser(4), attributes: { ...demoUser(4).attributes, last_sign_in_at: null } });
    render(
      <UsersTable
        users={[never]}
        columns={['status', 'last_sign_in', 'created']}
        selection={EMPTY_SELECTION}
        sort={undefined}
        onToggleRow={ignore}
        onTogglePage={ignore}
        onToggleSort={ignore}
        onOpenUser={ignore}
        onRowAction={ignore}
      />,
    );
    const row = cellsRow('User 004');
    expect(row?.querySelectorAll('td')[2]?.textContent).toBe('Never');
    expect(row?.querySelector('.UsersTable-narrowOnly')?.textContent).toBe('Never signed in · Created: Jan 5, 2024');
  });
});

function cellsRow(name: string) {
  return screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr');
}
