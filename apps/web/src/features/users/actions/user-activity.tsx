import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { type ReactNode, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ActivityEvent, useUserActivity } from '../api/get-user-activity.ts';
import { revealBidiControls } from '../utils/reveal-bidi-controls.ts';
import { createTimeFormats } from '../utils/time-formats.ts';
import './action-texts.ts';

/** "Ada Admin changed the user type to System Admin": who did what, in the page's language. */
export function activityText(event: ActivityEvent, t: TFunction): string {
  const name = event.actor_name ? revealBidiControls(event.actor_name) : t('userActions.activity.someone');
  switch (event.action) {
    case 'set_user_type':
      return t(event.after.is_system_admin ? 'userActions.activity.madeSystemAdmin' : 'userActions.activity.madeUser', {
        name,
      });
    case 'accept_invitation':
      return t('userActions.activity.acceptInvitation');
    default:
      return t(`userActions.activity.${event.action}`, { name });
  }
}

/** The user's latest changes, newest first, each with when it was made (the exact time on hover). */
export function UserActivity({ orgId, userId }: { orgId: string; userId: string }) {
  const { t, i18n } = useTranslation();
  const activity = useUserActivity(orgId, userId);
  const formats = useMemo(() => createTimeFormats(i18n.language), [i18n.language]);
  const titleId = useId();
  const now = Date.now();
  let body: ReactNode;
  if (activity.isPending) {
    body = <CircularProgress size={24} aria-label={t('userActions.activity.loading')} />;
  } else if (activity.isError) {
    body = <Typography variant="body2">{t('userActions.activity.error')}</Typography>;
  } else if (activity.data.length === 0) {
    body = <Typography variant="body2">{t('userActions.activity.empty')}</Typography>;
  } else {
    body = (
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1, typography: 'body2' }}>
        {activity.data.map((event) => (
          <li key={event.id}>
            {activityText(event, t)}
            {' · '}
            <Box
              component="time"
              dateTime={event.created_at}
              title={formats.dateTime(event.created_at)}
              sx={{ color: 'text.secondary' }}
            >
              {formats.relative(event.created_at, now)}
            </Box>
          </li>
        ))}
      </Box>
    );
  }
  return (
    <Box component="section" aria-labelledby={titleId} aria-busy={activity.isPending} sx={{ mt: 3 }}>
      <Typography id={titleId} variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {t('userActions.activity.title')}
      </Typography>
      {body}
    </Box>
  );
}
