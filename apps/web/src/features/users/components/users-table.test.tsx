import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { switchLanguage } from '../../../app/i18n.ts';
import { demoUser } from '../../../testing/users-fixtures.ts';
import { toUser } from '../api/get-users.ts';
import { EMPTY_SELECTION } from '../model/selection.ts';
import { UsersTable } from './users-table.tsx';

// The rows' texts are translated once for the table (useRowTexts), not in each row.
afterEach(async () => {
  await act(() => switchLanguage('en'));
});

const users = [1, 2, 5, 7].map((n) => toUser(demoUser(n)));
const ignore = () => undefined;
const renderTable = () =>
  render(
    <UsersTable
      users={users}
      selection={EMPTY_SELECTION}
      sort={undefined}
      onToggleRow={ignore}
      onTogglePage={ignore}
      onToggleSort={ignore}
      onOpenUser={ignore}
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
    expect(cellsOf('User 005').text).toContain('Drittanbieter');
    expect(cellsOf('User 001').checkbox).toHaveAccessibleName('User 001 auswählen');
  });
});
