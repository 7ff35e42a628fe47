import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UserStatus } from '@users-admin/contract';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';
import type { User } from '../api/get-users.ts';
import { NARROW_ONLY, WIDE_ONLY } from './table-layout.ts';
import { UserAvatar } from './user-avatar.tsx';

type RowAction = 'resendInvitation' | 'sendInvitation' | 'contactSupport';

/** The per-row link for each status (SPEC.md §4); active users have none. */
export const ROW_ACTION_BY_STATUS: Record<UserStatus, RowAction | undefined> = {
  active: undefined,
  pending: 'resendInvitation',
  inactive: 'sendInvitation',
  disabled: 'contactSupport',
};

interface UserRowProps {
  user: User;
  selected: boolean;
  onToggle: (user: User) => void;
}

/** On a narrow screen a long address breaks before the @ rather than anywhere. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

export const UserRow = memo(function UserRow({ user, selected, onToggle }: UserRowProps) {
  const { t } = useTranslation();
  const rowAction = ROW_ACTION_BY_STATUS[user.status];
  const checkboxLabel = t('users.selection.selectRow', { name: user.name });
  const dataSource = t(user.isExternal ? 'users.dataSource.thirdParty' : 'users.dataSource.platform');
  const userType = t(user.isSystemAdmin ? 'users.userType.systemAdmin' : 'users.userType.user');

  return (
    <TableRow hover selected={selected}>
      <TableCell padding="checkbox">
        {user.isExternal ? (
          // A disabled control fires no pointer events: the span carries the tooltip.
          <LazyTooltip title={t('users.selection.externalTooltip')} describeChild>
            <Box component="span" sx={{ display: 'inline-flex' }}>
              <Checkbox disabled slotProps={{ input: { 'aria-label': checkboxLabel } }} />
            </Box>
          </LazyTooltip>
        ) : (
          <Checkbox
            checked={selected}
            onChange={() => onToggle(user)}
            slotProps={{ input: { 'aria-label': checkboxLabel } }}
          />
        )}
      </TableCell>
      <TableCell component="th" scope="row" sx={{ minWidth: { xs: 0, md: 240 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 1, md: 1.5 }, minWidth: 0 }}>
          <UserAvatar user={user} />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {user.name}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
              <EmailText email={user.email} />
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', ...NARROW_ONLY }}>
              {dataSource} · {userType}
            </Typography>
          </Box>
        </Box>
      </TableCell>
      <TableCell sx={WIDE_ONLY}>{dataSource}</TableCell>
      <TableCell>
        <Box>{t(`users.status.${user.status}`)}</Box>
        {rowAction && (
          <Link
            component="button"
            type="button"
            variant="body2"
            sx={{ textAlign: 'start' }}
            onClick={() => console.info(`[stub] ${rowAction} for user ${user.id} (${user.email}): no call is made`)}
          >
            {t(`users.rowActions.${rowAction}`)}
          </Link>
        )}
      </TableCell>
      <TableCell sx={WIDE_ONLY}>{userType}</TableCell>
    </TableRow>
  );
});
