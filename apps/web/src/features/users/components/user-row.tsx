import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import type { UserColumn, UserStatus } from '@users-admin/contract';
import { type MouseEvent, memo, Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../../components/lazy-part.ts';
import { LazyTooltip } from '../../../components/lazy-tooltip.tsx';
import { retryingImport } from '../../../lib/retry/retry.ts';
import type { User } from '../api/get-users.ts';
import { userSheetHref } from '../hooks/use-user-sheet-url.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { cellClasses as c } from './table-layout.ts';
import { UserAvatar } from './user-avatar.tsx';

export type RowAction = 'resendInvitation' | 'sendInvitation' | 'contactSupport';

/** The per-row link for each status (SPEC.md §4); active users have none. */
export const ROW_ACTION_BY_STATUS: Record<UserStatus, RowAction | undefined> = {
  active: undefined,
  pending: 'resendInvitation',
  inactive: 'sendInvitation',
  disabled: 'contactSupport',
};

/**
 * What the rows say, translated once for the table rather than in each of its 25 to 100 rows: a
 * useTranslation hook and seven translations in each row were a large part of a warm load.
 * Every language has all of English's keys (locales.test.ts), so each object is complete.
 */
export interface RowTexts {
  selectRow: (name: string) => string;
  dataSource: { platform: string; thirdParty: string };
  userType: { systemAdmin: string; user: string };
  status: Record<UserStatus, string>;
  rowAction: Record<RowAction, string>;
  externalReason: string;
  /** The page's language, for the time columns' formats. */
  language: string;
  lastSignIn: { never: string; signedIn: (when: string) => string; neverSignedIn: string };
  createdOn: (date: string) => string;
}

/** The rows' texts in the page's language; the same object until the language changes. */
export function useRowTexts(): RowTexts {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(
    () => ({
      selectRow: (name: string) => t('users.selection.selectRow', { name }),
      dataSource: t('users.dataSource', { returnObjects: true }),
      userType: t('users.userType', { returnObjects: true }),
      status: t('users.status', { returnObjects: true }),
      rowAction: t('users.rowActions', { returnObjects: true }),
      externalReason: t('users.selection.externalTooltip'),
      language,
      lastSignIn: {
        never: t('users.lastSignIn.never'),
        signedIn: (when: string) => t('users.lastSignIn.signedIn', { when }),
        neverSignedIn: t('users.lastSignIn.neverSignedIn'),
      },
      createdOn: (date: string) => t('users.created.on', { date }),
    }),
    [t, language],
  );
}

interface UserRowProps {
  user: User;
  /** The optional columns shown, in USER_COLUMNS order. */
  columns: readonly UserColumn[];
  selected: boolean;
  onToggle: (user: User) => void;
  texts: RowTexts;
  /** Opens the user's side sheet: their name is a link to it. */
  onOpenUser: (id: string) => void;
  onRowAction: (user: User, action: RowAction) => void;
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

/** The optional columns whose contents load apart (time-cells.tsx). */
const TIME_COLUMNS: readonly UserColumn[] = ['last_sign_in', 'created'];
export const showsTimes = (columns: readonly UserColumn[]) => columns.some((column) => TIME_COLUMNS.includes(column));

const loadTimeCells = retryingImport(() => import('./time-cells.tsx'));
const LastSignIn = lazyPart(() => loadTimeCells().then((module) => module.LastSignIn));
const Created = lazyPart(() => loadTimeCells().then((module) => module.Created));
const NarrowTimes = lazyPart(() => loadTimeCells().then((module) => module.NarrowTimes));
/** Loads the time columns' code, so that a page showing them draws them at once (main.tsx, the Columns menu). */
export const preloadTimeCells = () => Promise.all([LastSignIn.preload(), Created.preload(), NarrowTimes.preload()]);

/** Below the lg breakpoint Data source and User type, if chosen, are told under the user's e-mail (table-layout.ts). */
function narrowLine(user: User, columns: readonly UserColumn[], texts: RowTexts): string {
  const parts: string[] = [];
  if (columns.includes('data_source')) {
    parts.push(user.isExternal ? texts.dataSource.thirdParty : texts.dataSource.platform);
  }
  if (columns.includes('user_type')) parts.push(user.isSystemAdmin ? texts.userType.systemAdmin : texts.userType.user);
  return parts.join(' · ');
}

// One row's cells in one place, long as it is: a component per cell would add one to render and
// mount per cell of each of the 25 to 100 rows.
export const UserRow = memo(function UserRow({
  user,
  columns,
  selected,
  onToggle,
  texts,
  onOpenUser,
  onRowAction,
}: UserRowProps) {
  const rowAction = ROW_ACTION_BY_STATUS[user.status];
  const checkboxLabel = texts.selectRow(user.name);
  const dataSource = user.isExternal ? texts.dataSource.thirdParty : texts.dataSource.platform;
  const userType = user.isSystemAdmin ? texts.userType.systemAdmin : texts.userType.user;
  const externalReason = texts.externalReason;
  const reasonId = useId();
  const shownName = revealBidiControls(user.name);
  const shownEmail = revealBidiControls(user.email);
  const narrow = narrowLine(user, columns, texts);
  const times = showsTimes(columns);
  const shown = (column: UserColumn) => columns.includes(column);

  return (
    <tr className={selected ? `${c.row} ${c.selected}` : c.row}>
      <td className={c.checkboxCell}>
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
      </td>
      {/* Plain elements styled by the table (table-layout.ts), not MUI text elements: see there. */}
      <th scope="row" className={`${c.cell} ${c.userCell}`}>
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
            {(narrow || times) && (
              <p className={`${c.secondLine} ${c.narrowOnly}`}>
                {narrow}
                {times && (
                  <Suspense fallback={null}>
                    <NarrowTimes user={user} columns={columns} texts={texts} after={narrow !== ''} />
                  </Suspense>
                )}
              </p>
            )}
          </div>
        </div>
      </th>
      {shown('data_source') && <td className={`${c.cell} ${c.wideOnly}`}>{dataSource}</td>}
      {shown('status') && (
        <td className={c.cell}>
          <div>{texts.status[user.status]}</div>
          {rowAction && (
            <Link
              component="button"
              type="button"
              variant="body2"
              className={c.rowAction}
              onClick={() => onRowAction(user, rowAction)}
            >
              {texts.rowAction[rowAction]}
            </Link>
          )}
        </td>
      )}
      {shown('user_type') && <td className={`${c.cell} ${c.wideOnly}`}>{userType}</td>}
      {shown('last_sign_in') && (
        <td className={`${c.cell} ${c.wideOnly} ${c.time}`}>
          <Suspense fallback={null}>
            <LastSignIn at={user.lastSignInAt} texts={texts} />
          </Suspense>
        </td>
      )}
      {shown('created') && (
        <td className={`${c.cell} ${c.wideOnly} ${c.time}`}>
          <Suspense fallback={null}>
            <Created at={user.createdAt} texts={texts} />
          </Suspense>
        </td>
      )}
    </tr>
  );
});
