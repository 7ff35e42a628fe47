import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LAST_SIGN_IN_FILTERS, type LastSignInFilter, type UserStatus } from '@users-admin/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FILTER_KEYS, STATUS_FILTERS, type UsersFilters } from '../model/users-url-query.ts';

const ALL = 'all';

interface FiltersPopoverProps {
  id: string;
  anchor: HTMLElement | null;
  filters: UsersFilters;
  onChange: (filters: UsersFilters) => void;
  onClose: () => void;
}

/** A boolean filter as a select's value: "all" when it is not set. */
const fromBoolean = (value: boolean | undefined) => (value === undefined ? ALL : String(value));
const toBoolean = (value: string) => (value === ALL ? undefined : value === 'true');

/**
 * The filters of SPEC.md §2, applied as soon as they change. Long as one form: its
 * labelled selects read top to bottom as the popover shows them.
 */
export function FiltersPopover({ id, anchor, filters, onChange, onClose }: FiltersPopoverProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const statusId = useId();
  const active = FILTER_KEYS.some((key) => filters[key] !== undefined);

  // Every filter is kept but the one changed; an "All" leaves its key out.
  const change = <K extends keyof UsersFilters>(key: K, value: UsersFilters[K] | undefined) => {
    const { [key]: _changed, ...others } = filters;
    onChange(value === undefined ? others : { ...others, [key]: value });
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
          onChange={(event) =>
            change('status', event.target.value === ALL ? undefined : (event.target.value as UserStatus))
          }
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
          value={fromBoolean(filters.isSystemAdmin)}
          onChange={(event) => change('isSystemAdmin', toBoolean(event.target.value))}
        >
          <MenuItem value={ALL}>{t('users.filters.all')}</MenuItem>
          <MenuItem value="true">{t('users.userType.systemAdmin')}</MenuItem>
          <MenuItem value="false">{t('users.userType.user')}</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label={t('users.columns.dataSource')}
          value={fromBoolean(filters.isExternal)}
          onChange={(event) => change('isExternal', toBoolean(event.target.value))}
        >
          <MenuItem value={ALL}>{t('users.filters.all')}</MenuItem>
          <MenuItem value="false">{t('users.dataSource.platform')}</MenuItem>
          <MenuItem value="true">{t('users.dataSource.thirdParty')}</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label={t('users.lastSignIn.column')}
          value={filters.lastSignIn ?? ALL}
          onChange={(event) =>
            change('lastSignIn', event.target.value === ALL ? undefined : (event.target.value as LastSignInFilter))
          }
        >
          <MenuItem value={ALL}>{t('users.lastSignIn.anyTime')}</MenuItem>
          {LAST_SIGN_IN_FILTERS.map((filter) => (
            <MenuItem key={filter} value={filter}>
              {t(`users.lastSignIn.filter.${filter}`)}
            </MenuItem>
          ))}
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
