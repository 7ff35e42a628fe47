import Box from '@mui/material/Box';
import { DEFAULT_USER_COLUMNS, type UserColumn, type UserListQuery } from '@users-admin/contract';
import type { User } from '../api/get-users.ts';
import { type Selection, type SelectionTotal, selectedRowsOnPage } from '../model/selection.ts';
import { activeFilterCount, type UsersFilters } from '../model/users-url-query.ts';
import { ActionsButton } from './actions-button.tsx';
import { ColumnsButton } from './columns-button.tsx';
import { ExportButton } from './export-button.tsx';
import { FilterButton } from './filter-button.tsx';
import { SearchBox } from './search-box.tsx';

export interface UsersToolbarProps {
  orgId: string | undefined;
  query: UserListQuery;
  /** The rows on screen, for what the selection holds of them. */
  rows: readonly User[];
  selection: Selection;
  /** What the selection counts against, for the actions' questions. */
  selectionTotal: SelectionTotal;
  hasSelection: boolean;
  /** The chosen columns; undefined while they load. */
  columns: readonly UserColumn[] | undefined;
  onSearch: (search: string) => void;
  onFiltersChange: (filters: UsersFilters) => void;
  /** An action changed users: the selection has served. */
  onActionDone: () => void;
}

/** The search box and the buttons above the table: Actions, Filter, Columns and Export. */
export function UsersToolbar({
  orgId,
  query,
  rows,
  selection,
  selectionTotal,
  hasSelection,
  columns,
  onSearch,
  onFiltersChange,
  onActionDone,
}: UsersToolbarProps) {
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5, mb: 2 }}
    >
      <Box role="search" sx={{ width: { xs: '100%', md: 'auto' } }}>
        <SearchBox value={query.search ?? ''} onSearch={onSearch} />
      </Box>
      {/* The buttons do not all fit beside each other on a phone: the last go under the others. */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1.5 }}>
        <ActionsButton
          orgId={orgId || undefined}
          hasSelection={hasSelection}
          canInvitePending={selectedRowsOnPage(selection, rows).some((user) => user.status === 'pending')}
          context={{ selection, total: selectionTotal, rows, query }}
          onDone={onActionDone}
        />
        <FilterButton filters={query} activeCount={activeFilterCount(query)} onChange={onFiltersChange} />
        {orgId && <ColumnsButton orgId={orgId} columns={columns} />}
        <ExportButton
          orgId={orgId || undefined}
          query={query}
          selection={selection}
          hasSelection={hasSelection}
          // The columns shown; SPEC.md's while they load.
          columns={columns ?? DEFAULT_USER_COLUMNS}
        />
      </Box>
    </Box>
  );
}
