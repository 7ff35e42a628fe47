import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UserStatus } from '@users-admin/contract';
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';
import { lineClamp } from '../../../config/design-tokens.ts';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import type { User } from '../api/get-users.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
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

/**
 * What the rows say, translated once for the table rather than in each of its 25 to 100 rows: a
 * useTranslation hook and seven translations in each row cost about 40 ms of a warm load (issue 6).
 * Every language has all of English's keys (locales.test.ts), so each object is complete.
 */
export interface RowTexts {
  selectRow: (name: string) => string;
  dataSource: { platform: string; thirdParty: string };
  userType: { systemAdmin: string; user: string };
  status: Record<UserStatus, string>;
  rowAction: Record<RowAction, string>;
  externalReason: string;
}

/** The rows' texts in the page's language; the same object until the language changes. */
export function useRowTexts(): RowTexts {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      selectRow: (name: string) => t('users.selection.selectRow', { name }),
      dataSource: t('users.dataSource', { returnObjects: true }),
      userType: t('users.userType', { returnObjects: true }),
      status: t('users.status', { returnObjects: true }),
      rowAction: t('users.rowActions', { returnObjects: true }),
      externalReason: t('users.selection.externalTooltip'),
    }),
    [t],
  );
}

interface UserRowProps {
  user: User;
  selected: boolean;
  onToggle: (user: User) => void;
  texts: RowTexts;
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

/**
 * Names and addresses come from directories and can be anything: a 300-character word would make a
 * row hundreds of pixels tall. Each wraps anywhere, stops at two lines with an ellipsis, and shows
 * in full on hover (title; the row's accessible names carry the full text).
 */
const AT_MOST_TWO_LINES = { ...lineClamp(2), overflowWrap: 'anywhere', textOverflow: 'ellipsis' } as const;

/** Drawn as MUI draws a disabled checkbox, but it keeps its focus ring. */
const NOT_SELECTABLE = {
  color: 'action.disabled',
  cursor: 'not-allowed',
  '&:hover': { backgroundColor: 'transparent' },
  '& input': { cursor: 'not-allowed' },
} as const;

export const UserRow = memo(function UserRow({ user, selected, onToggle, texts }: UserRowProps) {
  const rowAction = ROW_ACTION_BY_STATUS[user.status];
  const checkboxLabel = texts.selectRow(user.name);
  const dataSource = user.isExternal ? texts.dataSource.thirdParty : texts.dataSource.platform;
  const userType = user.isSystemAdmin ? texts.userType.systemAdmin : texts.userType.user;
  const externalReason = texts.externalReason;
  const reasonId = useId();
  const shownName = revealBidiControls(user.name);
  const shownEmail = revealBidiControls(user.email);

  return (
    <TableRow hover selected={selected}>
      <TableCell padding="checkbox">
        {user.isExternal ? (
          // Not `disabled`: a disabled input takes no focus, so keyboard and screen-reader users would
          // never reach the reason. It stays in the Tab order and says aria-disabled; held unchecked
          // with no change handler, a click or Space leaves it as it is (preventing the click's
          // default would not: React re-checks the box, react#9023). The reason describes it whether
          // or not the tooltip has loaded yet.
          <LazyTooltip title={externalReason} describeChild>
            <Box component="span" sx={{ display: 'inline-flex' }}>
              <Checkbox
                checked={false}
                disableRipple
                sx={NOT_SELECTABLE}
                slotProps={{
                  input: {
                    'aria-label': checkboxLabel,
                    'aria-disabled': true,
                    'aria-describedby': reasonId,
                  },
                }}
              />
              <Box component="span" id={reasonId} sx={visuallyHidden}>
                {externalReason}
              </Box>
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
            <Typography variant="body2" title={shownName} sx={{ ...AT_MOST_TWO_LINES, fontWeight: 600 }}>
              {shownName}
            </Typography>
            <Typography variant="body2" title={shownEmail} sx={{ ...AT_MOST_TWO_LINES, color: 'text.secondary' }}>
              <EmailText email={shownEmail} />
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', ...NARROW_ONLY }}>
              {dataSource} · {userType}
            </Typography>
          </Box>
        </Box>
      </TableCell>
      <TableCell sx={WIDE_ONLY}>{dataSource}</TableCell>
      <TableCell>
        <Box>{texts.status[user.status]}</Box>
        {rowAction && (
          <Link
            component="button"
            type="button"
            variant="body2"
            sx={{ textAlign: 'start' }}
            onClick={() => console.info(`[stub] ${rowAction} for user ${user.id} (${user.email}): no call is made`)}
          >
            {texts.rowAction[rowAction]}
          </Link>
        )}
      </TableCell>
      <TableCell sx={WIDE_ONLY}>{userType}</TableCell>
    </TableRow>
  );
});
