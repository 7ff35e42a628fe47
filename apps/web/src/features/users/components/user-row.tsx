import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { UserStatus } from '@users-admin/contract';
import { type MouseEvent, memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';
import type { User } from '../api/get-users.ts';
import { userSheetHref } from '../hooks/use-user-sheet-url.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { cellClasses as c } from './table-layout.ts';
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
  /** Opens the user's side sheet: their name is a link to it. */
  onOpenUser: (id: string) => void;
}

/** A plain click opens the sheet in place; a click that asks for a new tab or window is the browser's. */
const opensInPlace = (event: MouseEvent<HTMLAnchorElement>) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

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

export const UserRow = memo(function UserRow({ user, selected, onToggle, texts, onOpenUser }: UserRowProps) {
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
            <span className={c.reasonAnchor}>
              <Checkbox
                checked={false}
                disableRipple
                className={c.notSelectable}
                slotProps={{
                  input: {
                    'aria-label': checkboxLabel,
                    'aria-disabled': true,
                    'aria-describedby': reasonId,
                  },
                }}
              />
              <span id={reasonId} className={c.hidden}>
                {externalReason}
              </span>
            </span>
          </LazyTooltip>
        ) : (
          <Checkbox
            checked={selected}
            onChange={() => onToggle(user)}
            slotProps={{ input: { 'aria-label': checkboxLabel } }}
          />
        )}
      </TableCell>
      {/* Plain elements styled by the table (table-layout.ts), not MUI text elements: see there. */}
      <TableCell component="th" scope="row" className={c.userCell}>
        <div className={c.user}>
          <UserAvatar user={user} className={c.avatar} />
          <div className={c.userText}>
            <p title={shownName} className={`${c.clamped} ${c.name}`}>
              <a
                href={userSheetHref(user.id)}
                data-user-id={user.id}
                className={c.nameLink}
                onClick={(event) => {
                  if (!opensInPlace(event)) return;
                  event.preventDefault();
                  onOpenUser(user.id);
                }}
              >
                {shownName}
              </a>
            </p>
            <p title={shownEmail} className={`${c.clamped} ${c.secondLine}`}>
              <EmailText email={shownEmail} />
            </p>
            <p className={`${c.secondLine} ${c.narrowOnly}`}>
              {dataSource} · {userType}
            </p>
          </div>
        </div>
      </TableCell>
      <TableCell className={c.wideOnly}>{dataSource}</TableCell>
      <TableCell>
        <div>{texts.status[user.status]}</div>
        {rowAction && (
          <Link
            component="button"
            type="button"
            variant="body2"
            className={c.rowAction}
            onClick={() => console.info(`[stub] ${rowAction} for user ${user.id} (${user.email}): no call is made`)}
          >
            {texts.rowAction[rowAction]}
          </Link>
        )}
      </TableCell>
      <TableCell className={c.wideOnly}>{userType}</TableCell>
    </TableRow>
  );
});
