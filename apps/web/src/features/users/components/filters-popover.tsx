import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_FILTERS, type UsersFilters } from '../model/users-url-query.ts';

const ALL = 'all';

interface FiltersPopoverProps {
  id: string;
  anchor: HTMLElement | null;
  filters: UsersFilters;
  onChange: (filters: UsersFilters) => void;
  onClose: () => void;
}

/** Status and user-type filters, applied as soon as they change (SPEC.md §2). */
export function FiltersPopover({ id, anchor, filters, onChange, onClose }: FiltersPopoverProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const statusId = useId();
  const active = filters.status !== undefined || filters.isSystemAdmin !== undefined;
  const userType = filters.isSystemAdmin === undefined ? ALL : String(filters.isSystemAdmin);

  const change = (next: Partial<Record<keyof UsersFilters, unknown>>) => {
    const merged = { ...filters, ...next };
    const result: UsersFilters = {};
    if (merged.status) result.status = merged.status as NonNullable<UsersFilters['status']>;
    if (typeof merged.isSystemAdmin === 'boolean') result.isSystemAdmin = merged.isSystemAdmin;
    onChange(result);
  };

  return (
    <Popover
      id={id}
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { width: 600, maxWidth: 'calc(100vw - 32px)', p: 3, mt: 1 },
        },
      }}
    >
      <Typography id={titleId} variant="h2" sx={{ mb: 2 }}>
        {t('users.filters.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <TextField
          id={statusId}
          select
          size="small"
          label={t('users.filters.status')}
          value={filters.status ?? ALL}
          onChange={(event) => change({ status: event.target.value === ALL ? undefined : event.target.value })}
        >
          <MenuItem value={ALL}>{t('users.filters.all')}</MenuItem>
          {STATUS_FILTERS.map((status) => (
            <MenuItem key={status} value={status}>
              {t(`users.status.${status}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('users.filters.userType')}
          value={userType}
          onChange={(event) =>
            change({ isSystemAdmin: event.target.value === ALL ? undefined : event.target.value === 'true' })
          }
        >
          <MenuItem value={ALL}>{t('users.filters.all')}</MenuItem>
          <MenuItem value="true">{t('users.userType.systemAdmin')}</MenuItem>
          <MenuItem value="false">{t('users.userType.user')}</MenuItem>
        </TextField>
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button
          disabled={!active}
          onClick={() => {
            onChange({});
            // The button is disabled now and would drop the focus: keep it in the dialog, on the first filter.
            document.getElementById(statusId)?.focus();
          }}
        >
          {t('users.filters.clearAll')}
        </Button>
      </Box>
    </Popover>
  );
}
