import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlankIcon from '@mui/icons-material/CheckBoxOutlineBlank';
import Alert from '@mui/material/Alert';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import { USER_COLUMNS, type UserColumn } from '@users-admin/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inMainLandmark } from '../../../utils/main-landmark.ts';
import { useToggleUserColumn } from '../api/save-user-columns.ts';
import { preloadTimeCells } from './user-row.tsx';

/** How long the save-failure alert stays, as the no-selection one (SPEC.md §9). */
const SAVE_FAILED_ALERT_MS = 5000;

const LABEL_KEYS = {
  data_source: 'users.columns.dataSource',
  status: 'users.columns.status',
  user_type: 'users.columns.userType',
  last_sign_in: 'users.lastSignIn.column',
  created: 'users.created.column',
} as const satisfies Record<UserColumn, string>;

function Choice({
  label,
  checked,
  disabled = false,
  onToggle,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onToggle?: () => void;
}) {
  const Icon = checked ? CheckBoxIcon : CheckBoxOutlineBlankIcon;
  return (
    <MenuItem role="menuitemcheckbox" aria-checked={checked} disabled={disabled} onClick={onToggle}>
      <ListItemIcon>
        <Icon fontSize="small" color={checked && !disabled ? 'primary' : 'inherit'} />
      </ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
}

interface ColumnsMenuProps {
  id: string;
  /** The Columns button, which names the menu. */
  labelledBy: string;
  anchor: HTMLElement | null;
  orgId: string;
  columns: readonly UserColumn[];
  onClose: () => void;
}

/**
 * The table's optional columns, each shown or hidden as soon as it is chosen and saved for the
 * administrator on the server; the menu stays open for the next choice. The User column is always shown.
 */
export function ColumnsMenu({ id, labelledBy, anchor, orgId, columns, onClose }: ColumnsMenuProps) {
  const { t } = useTranslation();
  const [saveFailed, setSaveFailed] = useState(false);
  // The menu closes on a failure so that the alert is not hidden behind it from screen readers.
  const toggle = useToggleUserColumn(orgId, {
    onError: () => {
      onClose();
      setSaveFailed(true);
    },
  });
  // The time columns' code, before they are chosen here, so that they show their times at once.
  useEffect(() => void preloadTimeCells(), []);

  return (
    <>
      <Menu
        id={id}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={onClose}
        container={inMainLandmark}
        slotProps={{ list: { 'aria-labelledby': labelledBy } }}
      >
        <Choice label={t('users.columns.user')} checked disabled />
        {USER_COLUMNS.map((column) => (
          <Choice
            key={column}
            label={t(LABEL_KEYS[column])}
            checked={columns.includes(column)}
            onToggle={() => toggle(column)}
          />
        ))}
      </Menu>
      <Snackbar
        open={saveFailed}
        autoHideDuration={SAVE_FAILED_ALERT_MS}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setSaveFailed(false);
        }}
      >
        <Alert
          severity="error"
          onClose={() => setSaveFailed(false)}
          sx={{ minWidth: 272, maxWidth: 480, boxShadow: 3 }}
        >
          {t('users.columnChoice.saveFailed')}
        </Alert>
      </Snackbar>
    </>
  );
}
