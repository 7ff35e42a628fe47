import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../../utils/visually-hidden.ts';
import type { UserDetails } from '../api/get-user.ts';
import { avatarInitials } from '../utils/avatar-initials.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { createTimeFormats, type TimeFormats } from '../utils/time-formats.ts';
import { ROW_ACTION_BY_STATUS, type RowAction } from './user-row.tsx';

/** Relative time, with the exact moment in a tooltip that hover and keyboard focus both open. */
function LastSignIn({ iso, formats }: { iso: string | null; formats: TimeFormats }) {
  const { t } = useTranslation();
  if (!iso) return <>{t('users.sheet.never')}</>;
  return (
    <Tooltip title={formats.dateTime(iso)} describeChild>
      <Box component="time" dateTime={iso} tabIndex={0} sx={{ borderBottom: 1, borderBottomStyle: 'dotted' }}>
        {formats.relative(iso, Date.now())}
      </Box>
    </Tooltip>
  );
}

/** The id, and a button that copies it; what happened is said to screen readers too. */
function CopyableId({ id }: { id: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(id).then(
      () => setCopied(true),
      (error: unknown) => console.warn('The id could not be copied', error),
    );
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Box component="code" sx={{ fontSize: '0.8125rem', overflowWrap: 'anywhere' }}>
        {id}
      </Box>
      <Tooltip title={copied ? t('users.sheet.copied') : t('users.sheet.copyId')}>
        <IconButton size="small" aria-label={t('users.sheet.copyId')} onClick={() => void copy()}>
          <ContentCopyIcon sx={{ fontSize: 18 }} />
        </IconButton>
      </Tooltip>
      <Box role="status" sx={visuallyHidden}>
        {copied ? t('users.sheet.copied') : ''}
      </Box>
    </Box>
  );
}

/** The user as the sheet shows them: avatar, e-mail, then each field under its label, in one list as shown. */
export function UserSheetDetails({
  user,
  onStatusAction,
}: {
  user: UserDetails;
  /** The link under the status: send or resend the invitation, or contact support. */
  onStatusAction: (action: RowAction) => void;
}) {
  const { t, i18n } = useTranslation();
  // The same words as the table's time columns.
  const formats = useMemo(() => createTimeFormats(i18n.language), [i18n.language]);
  const rowAction = ROW_ACTION_BY_STATUS[user.status];
  const email = revealBidiControls(user.email);
  const fields: [string, ReactNode][] = [
    [
      t('users.sheet.fields.status'),
      <>
        <div>{t(`users.status.${user.status}`)}</div>
        {rowAction && (
          <Link component="button" type="button" variant="body2" onClick={() => onStatusAction(rowAction)}>
            {t(`users.rowActions.${rowAction}`)}
          </Link>
        )}
      </>,
    ],
    [t('users.sheet.fields.userType'), t(user.isSystemAdmin ? 'users.userType.systemAdmin' : 'users.userType.user')],
    [
      t('users.sheet.fields.dataSource'),
      t(user.isExternal ? 'users.dataSource.thirdParty' : 'users.dataSource.platform'),
    ],
    [t('users.sheet.fields.lastSignIn'), <LastSignIn key="last" iso={user.lastSignInAt} formats={formats} />],
    [t('users.sheet.fields.created'), formats.date(user.createdAt)],
    [t('users.sheet.fields.id'), <CopyableId key="id" id={user.id} />],
  ];

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 3 }}>
        <Box
          aria-hidden="true"
          sx={{
            display: 'grid',
            placeItems: 'center',
            flexShrink: 0,
            width: 56,
            height: 56,
            borderRadius: '50%',
            overflow: 'hidden',
            fontSize: '1.25rem',
            fontWeight: 600,
            bgcolor: '#dbe7f7',
            color: '#0b3d91',
          }}
        >
          {avatarInitials(user)}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('users.sheet.fields.email')}
          </Typography>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{email}</Typography>
        </Box>
      </Box>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'minmax(7rem, auto) 1fr', gap: 2, m: 0, typography: 'body2' }}
      >
        {fields.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ color: 'text.secondary' }}>
              {label}
            </Box>
            <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
              {value}
            </Box>
          </Box>
        ))}
      </Box>
    </>
  );
}
