import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectionSummary } from '../model/selection.ts';

interface SelectionBannerProps {
  summary: SelectionSummary;
  total: number;
  canSelectAll: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}

/** '{n} selected', '{n} selected (all on this page)' or 'All {total} users selected' (SPEC.md §4). */
export function SelectionBanner({ summary, total, canSelectAll, onSelectAll, onClear }: SelectionBannerProps) {
  const { t } = useTranslation();
  const textId = useId();
  if (summary.kind === 'none') return null;
  const text =
    summary.kind === 'all'
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
        <Typography id={textId} role="status" variant="body2" sx={{ fontWeight: 600 }}>
          {text}
        </Typography>
        {canSelectAll && (
          <Button size="small" onClick={onSelectAll}>
            {t('users.selection.selectAll', { count: total })}
          </Button>
        )}
      </Box>
      <IconButton size="small" aria-label={t('users.selection.clear')} onClick={onClear} sx={{ flexShrink: 0 }}>
        <CloseIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}
