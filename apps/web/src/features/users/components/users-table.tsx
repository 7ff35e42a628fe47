import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';

import type { UserSort } from '@users-admin/contract';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import type { User } from '../api/get-users.ts';
import { isSelected, pageCheckboxState, type Selection } from '../model/selection.ts';
import { ColumnHeader } from './column-header.tsx';
import { PAGE_TITLE_ID } from './page-header.tsx';
import { cellClasses, tableStyles } from './table-layout.ts';
import { UserRow, useRowTexts } from './user-row.tsx';

interface UsersTableProps {
  /** While the next rows load, the shown rows cannot be used (the header and footer still can). */
  inert?: boolean;
  users: User[];
  selection: Selection;
  sort: UserSort | undefined;
  onToggleRow: (user: User) => void;
  onTogglePage: () => void;
  onToggleSort: () => void;
}

export function UsersTable({
  inert = false,
  users,
  selection,
  sort,
  onToggleRow,
  onTogglePage,
  onToggleSort,
}: UsersTableProps) {
  const { t } = useTranslation();
  const rowTexts = useRowTexts();
  const pageState = pageCheckboxState(selection, users);
  const direction = sort === '-name' ? 'desc' : 'asc';

  return (
    <TableContainer>
      <Table aria-labelledby={PAGE_TITLE_ID} sx={tableStyles}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={pageState.checked}
                indeterminate={pageState.indeterminate}
                disabled={pageState.disabled}
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
            <TableCell className={cellClasses.wideOnly}>
              <ColumnHeader label={t('users.columns.dataSource')} info={t('users.columns.dataSourceInfo')} />
            </TableCell>
            <TableCell>
              <ColumnHeader label={t('users.columns.status')} info={t('users.columns.statusInfo')} />
            </TableCell>
            <TableCell className={cellClasses.wideOnly}>
              <ColumnHeader label={t('users.columns.userType')} info={t('users.columns.userTypeInfo')} />
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody inert={inert}>
          {users.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              selected={isSelected(selection, user)}
              onToggle={onToggleRow}
              texts={rowTexts}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
