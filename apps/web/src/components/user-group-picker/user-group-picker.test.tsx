import { ThemeProvider } from '@mui/material/styles';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../../app/theme.ts';
import { LazyUserGroupPicker } from './lazy-user-group-picker.tsx';
import { optionInitials, type UserGroupOption } from './user-group-option.ts';
import { UserGroupPicker } from './user-group-picker.tsx';

const OPTIONS: UserGroupOption[] = [
  { id: '1', type: 'user', label: 'Ada Lovelace', email: 'ada@acme.example' },
  { id: '2', type: 'user', label: 'Grace Hopper', email: 'grace@globex.example', initials: 'GH' },
  { id: '1', type: 'group', label: 'Engineering' },
  { id: '3', type: 'group', label: 'Acme administrators' },
  { id: '4', type: 'user', label: 'Linus', email: 'linus@globex.example' },
];

function Single({ onChange = () => {} }: { onChange?: (value: UserGroupOption | null) => void }) {
  const [value, setValue] = useState<UserGroupOption | null>(null);
  return (
    <UserGroupPicker
      options={OPTIONS}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

function Multiple({ onChange }: { onChange: (value: UserGroupOption[]) => void }) {
  const [value, setValue] = useState<UserGroupOption[]>([]);
  return (
    <UserGroupPicker
      multiple
      label="Members"
      options={OPTIONS}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

const renderWithTheme = (ui: React.ReactElement) => render(<ThemeProvider theme={theme}>{ui}</ThemeProvider>);
const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('UserGroupPicker', () => {
  it('is a combobox named by its label, with a listbox of users and groups', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Single />);
    const input = screen.getByRole('combobox', { name: 'Users and groups' });
    await user.click(input);
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    expect(screen.getAllByRole('option')).toHaveLength(5);
    expect(screen.getByRole('option', { name: /Ada Lovelace.*ada@acme\.example.*\(User\)/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Engineering.*\(Group\)/ })).toBeInTheDocument();
  });

  it('shows initials for users and a group icon for groups', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Single />);
    await user.click(screen.getByRole('combobox'));
    const ada = screen.getByRole('option', { name: /Ada Lovelace/ });
    expect(within(ada).getByText('AL')).toBeInTheDocument();
    expect(within(ada).queryByTestId('GroupIcon')).toBeNull();
    expect(within(screen.getByRole('option', { name: /Grace Hopper/ })).getByText('GH')).toBeInTheDocument();
    expect(within(screen.getByRole('option', { name: /Linus/ })).getByText('L')).toBeInTheDocument();
    const engineering = screen.getByRole('option', { name: /Engineering/ });
    expect(within(engineering).getByTestId('GroupIcon')).toBeInTheDocument();
    expect(engineering).not.toHaveTextContent('@');
  });

  it('filters by label and by email as one types, ignoring case', async () => {
    const user = userEvent.setup();
    renderWithTheme(<Single />);
    const input = screen.getByRole('combobox');
    await user.type(input, 'ENGIN');
    expect(optionNames()).toEqual(['Engineering (Group)']);
    await user.clear(input);
    await user.type(input, '@globex');
    expect(screen.getAllByRole('option')).toHaveLength(2);
    expect(screen.getByRole('option', { name: /Grace Hopper.*grace@globex\.example/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Linus.*linus@globex\.example/ })).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'nobody');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No users or groups found')).toBeInTheDocument();
  });

  it('selects with the arrow keys and Enter', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithTheme(<Single onChange={onChange} />);
    const input = screen.getByRole('combobox');
    await user.click(input);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(input).toHaveAttribute('aria-activedescendant'));
    const active = document.getElementById(input.getAttribute('aria-activedescendant') ?? '');
    expect(active).toHaveTextContent('Engineering');
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ id: '1', type: 'group', label: 'Engineering' });
    expect(input).toHaveValue('Engineering');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('selects the first match of a search with Enter, and clears with Escape', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithTheme(<Single onChange={onChange} />);
    const input = screen.getByRole('combobox');
    await user.type(input, 'grace{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(OPTIONS[1]);
    await user.keyboard('{Escape}');
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('keeps a user and a group that share an id apart', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithTheme(<Multiple onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Members' });
    await user.type(input, 'ada{Enter}');
    await user.type(input, 'engineering{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([OPTIONS[0], OPTIONS[2]]);
    // Chosen options leave the list.
    await user.click(input);
    expect(optionNames().some((name) => name?.startsWith('Ada Lovelace'))).toBe(false);
    expect(screen.getAllByRole('button', { name: /Ada Lovelace|Engineering/ })).toHaveLength(2);
  });

  it('loads on demand through LazyUserGroupPicker', async () => {
    renderWithTheme(
      <Suspense fallback={<span>loading picker</span>}>
        <LazyUserGroupPicker options={OPTIONS} value={null} onChange={() => {}} label="Owner" />
      </Suspense>,
    );
    expect(await screen.findByRole('combobox', { name: 'Owner' })).toBeInTheDocument();
  });
});

describe('optionInitials', () => {
  it('prefers the own initials, else the first letters of the first and last words', () => {
    expect(optionInitials({ label: 'Ada King Lovelace' })).toBe('AL');
    expect(optionInitials({ label: 'ada', initials: '  ' })).toBe('A');
    expect(optionInitials({ label: 'Ada Lovelace', initials: 'AK' })).toBe('AK');
    expect(optionInitials({ label: '  ' })).toBe('');
    expect(optionInitials({ label: 'Émile Zola' })).toBe('ÉZ');
  });
});
