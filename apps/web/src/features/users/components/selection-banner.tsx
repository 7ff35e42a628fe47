// The search box's clear icon (the same cross as Close), already in the first render: no chunk of its own.
import ClearIcon from '@mui/icons-material/Clear';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectionSummary, SelectionTotal } from '../model/selection.ts';

interface SelectionBannerProps {
  summary: SelectionSummary;
  total: SelectionTotal;
  canSelectAll: boolean;
  /** Every match is selected, and counting them failed. */
  countFailed: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  onRecount: () => void;
}

/**
 * '{n} selected', '{n} selected (all on this page)' or 'All {total} users selected' (SPEC.md §4).
 * A capped total offers "Select all matching users", and the banner says it is counting them.
 */
export function SelectionBanner({
  summary,
  total,
  canSelectAll,
  countFailed,
  onSelectAll,
  onClear,
  onRecount,
}: SelectionBannerProps) {
  const { t } = useTranslation();
  const textId = useId();
  if (summary.kind === 'none') return null;
  const counting = summary.kind === 'uncounted' && !countFailed;
  const text =
    summary.kind === 'uncounted'
      ? t(countFailed ? 'users.selection.countFailed' : 'users.selection.counting')
      : summary.kind === 'all'
        ? t('users.selection.allSelected', { count: summary.count })
        : summary.kind === 'page'
          ? t('users.selection.selectedPage', { count: summary.count })
          : t('users.selection.selected', { count: summary.count });

  return (
    // A region named by what it says ('3 selected'); the count is a status, announced as it changes.
    <Box
      role="region"
      aria-labelledby={textId}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 0.5,
        bgcolor: '#e8f0fb',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {/* The text and "Select all" wrap between themselves; the clear button keeps its place at the end
          of the first line instead of wrapping onto a line of its own on a narrow screen. */}
      <Box
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, flex: '1 1 auto', minWidth: 0 }}
      >
        {/* A progress bar named by the status beside it, which says what is being counted. */}
        {counting && <CircularProgress size={16} thickness={5} aria-labelledby={textId} />}
        <Typography id={textId} role="status" variant="body2" sx={{ fontWeight: 600 }}>
          {text}
        </Typography>
        {canSelectAll && (
          <Button size="small" onClick={onSelectAll}>
            {total.exact
              ? t('users.selection.selectAll', { count: total.count })
              : t('users.selection.selectAllMatching')}
          </Button>
        )}
        {countFailed && summary.kind === 'uncounted' && (
          <Button size="small" onClick={onRecount}>
            {t('users.selection.countAgain')}
          </Button>
        )}
      </Box>
      <IconButton size="small" aria-label={t('users.selection.clear')} onClick={onClear} sx={{ flexShrink: 0 }}>
        <ClearIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}
