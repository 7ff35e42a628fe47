import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';

import type { UserColumn, UserSort } from '@users-admin/contract';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import type { User } from '../api/get-users.ts';
import { isSelected, pageCheckboxState, type Selection } from '../model/selection.ts';
import { ColumnHeader } from './column-header.tsx';
import { PAGE_TITLE_ID } from './page-header.tsx';
import { cellClasses, tableStyles } from './table-layout.ts';
import { type RowAction, UserRow, useRowTexts } from './user-row.tsx';

interface UsersTableProps {
  /** While the next rows load, the shown rows cannot be used (the header and footer still can). */
  inert?: boolean;
  users: User[];
  /** The optional columns shown, in USER_COLUMNS order. */
  columns: readonly UserColumn[];
  selection: Selection;
  sort: UserSort | undefined;
  onToggleRow: (user: User) => void;
  onTogglePage: () => void;
  onToggleSort: () => void;
  /** Opens a user's side sheet (their name is a link to it). */
  onOpenUser: (id: string) => void;
  /** A row's link under its status: send or resend the invitation, or contact support. */
  onRowAction: (user: User, action: RowAction) => void;
}

interface UsersTableHeadProps {
  columns: readonly UserColumn[];
  checked: boolean;
  indeterminate: boolean;
  disabled: boolean;
  sort: UserSort | undefined;
  onTogglePage: () => void;
  onToggleSort: () => void;
}

/** Each optional column's title and explanation; `wide`: a cell of its own from lg only (table-layout.ts). */
const HEADERS = {
  data_source: { label: 'users.columns.dataSource', info: 'users.columns.dataSourceInfo', wide: true },
  status: { label: 'users.columns.status', info: 'users.columns.statusInfo', wide: false },
  user_type: { label: 'users.columns.userType', info: 'users.columns.userTypeInfo', wide: true },
  last_sign_in: { label: 'users.lastSignIn.column', info: 'users.lastSignIn.info', wide: true },
  created: { label: 'users.created.column', info: 'users.created.info', wide: true },
} as const satisfies Record<UserColumn, object>;

/** Memoised: while the next rows load, or as rows are picked one by one, the head mostly stays. */
const UsersTableHead = memo(function UsersTableHead({
  columns,
  checked,
  indeterminate,
  disabled,
  sort,
  onTogglePage,
  onToggleSort,
}: UsersTableHeadProps) {
  const { t } = useTranslation();
  const direction = sort === '-name' ? 'desc' : 'asc';
  return (
    <TableHead>
      <TableRow>
        <TableCell padding="checkbox">
          <Checkbox
            checked={checked}
            indeterminate={indeterminate}
            disabled={disabled}
            onChange={onTogglePage}
            slotProps={{ input: { 'aria-label': t('users.selection.selectPage') } }}
          />
        </TableCell>
        <TableCell sortDirection={sort ? direction : false}>
          <TableSortLabel active={sort !== undefined} direction={direction} onClick={onToggleSort}>
            {t('users.columns.user')}
            {sort && (
              <Box component="span" sx={visuallyHidden}>
                {', '}
                {t(sort === 'name' ? 'users.columns.sortedAscending' : 'users.columns.sortedDescending')}
              </Box>
            )}
          </TableSortLabel>
        </TableCell>
        {columns.map((column) => {
          const { label, info, wide } = HEADERS[column];
          return (
            <TableCell key={column} className={wide ? cellClasses.wideOnly : undefined}>
              <ColumnHeader label={t(label)} info={t(info)} />
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
});

export function UsersTable({
  inert = false,
  users,
  columns,
  selection,
  sort,
  onToggleRow,
  onTogglePage,
  onToggleSort,
  onOpenUser,
  onRowAction,
}: UsersTableProps) {
  const rowTexts = useRowTexts();
  // The same object while the number of columns stays: Emotion then has nothing to work out again.
  const styles = useMemo(() => tableStyles(columns.length), [columns.length]);

  return (
    <TableContainer>
      <Table aria-labelledby={PAGE_TITLE_ID} sx={styles}>
        <UsersTableHead
          columns={columns}
          {...pageCheckboxState(selection, users)}
          sort={sort}
          onTogglePage={onTogglePage}
          onToggleSort={onToggleSort}
        />
        <TableBody inert={inert}>
          {/* Keyed by position, not by user: a new page, search or sort replaces every row, and
              React then updates 25 rows in place, quicker than taking 25 down and building 25.
              A row's props say everything of its user, and it re-renders when they change; focus,
              if on a row, stays with its position (docs/decisions.md). */}
          {users.map((user, position) => (
            <UserRow
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are recycled by position on purpose (above).
              key={position}
              user={user}
              columns={columns}
              selected={isSelected(selection, user)}
              onToggle={onToggleRow}
              texts={rowTexts}
              onOpenUser={onOpenUser}
              onRowAction={onRowAction}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
