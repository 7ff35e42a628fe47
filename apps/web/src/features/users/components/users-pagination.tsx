import Pagination from '@mui/material/Pagination';
import { useTheme } from '@mui/material/styles';
import TablePagination from '@mui/material/TablePagination';
import type { TablePaginationActionsProps } from '@mui/material/TablePaginationActions';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PAGE_SIZE_OPTIONS, SEARCH_WINDOW } from '@users-admin/contract';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { inMainLandmark } from '../../../utils/main-landmark.ts';

interface UsersPaginationProps {
  total: number;
  /** The total is "at least" (a search past the window): "more than", and pages only within the window. */
  totalIsLowerBound: boolean;
  /** 1-based, as in the URL. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}

/** Numbered pages in place of MUI's arrows; below the lg breakpoint, fewer sibling pages (SPEC.md §2). */
function PageNumbers({ count, page, rowsPerPage, onPageChange, className }: TablePaginationActionsProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  // Read as the footer first renders: it is drawn at the window's width at once, never wide and then narrowed.
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const pageCount = Math.max(1, Math.ceil(count / rowsPerPage));
  return (
    <Pagination
      className={className}
      count={pageCount}
      page={page + 1}
      siblingCount={wide ? 1 : 0}
      boundaryCount={1}
      shape="rounded"
      size="small"
      aria-label={t('users.pagination.label')}
      onChange={(_event, next) => onPageChange(null, next - 1)}
      getItemAriaLabel={(type, itemPage, selected) => {
        if (type === 'page') {
          return selected
            ? t('users.pagination.currentPage', { page: itemPage })
            : t('users.pagination.goToPage', { page: itemPage });
        }
        if (type === 'start-ellipsis' || type === 'end-ellipsis') return '';
        return t(`users.pagination.${type}`);
      }}
      sx={{ flexShrink: 0, ml: { xs: 0, md: 2 } }}
    />
  );
}

/** Memoised: a change of search or filter re-renders the page while the footer's numbers stay. */
export const UsersPagination = memo(function UsersPagination({
  total,
  totalIsLowerBound,
  page,
  pageSize,
  onPageChange,
  onPageSizeChange,
}: UsersPaginationProps) {
  const { t } = useTranslation();
  // Pages are counted from `count`: a lower bound offers the window's pages, never one beyond.
  const count = totalIsLowerBound ? Math.min(total, SEARCH_WINDOW) : total;
  return (
    <TablePagination
      component="div"
      count={count}
      page={page - 1}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
      onPageChange={(_event, next) => onPageChange(next + 1)}
      onRowsPerPageChange={(event) => onPageSizeChange(Number(event.target.value))}
      labelRowsPerPage={t('users.pagination.rowsPerPage')}
      labelDisplayedRows={({ from, to }) =>
        totalIsLowerBound
          ? t('users.pagination.moreThan', { from, to, count: total })
          : t('users.pagination.displayedRows', { from, to, count: total })
      }
      ActionsComponent={PageNumbers}
      slotProps={{
        toolbar: { sx: { flexWrap: 'wrap', rowGap: 1, justifyContent: 'flex-end', px: { xs: 1, md: 2 } } },
        select: { MenuProps: { container: inMainLandmark } },
      }}
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        // The rows-per-page select is not a ButtonBase: it needs its own visible keyboard focus.
        '& .MuiTablePagination-select:focus-visible': {
          outline: '2px solid',
          outlineColor: 'primary.main',
          outlineOffset: 2,
          borderRadius: 1,
        },
      }}
    />
  );
});
