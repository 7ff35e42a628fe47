import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { useSession } from '../../features/session/api/get-session.ts';
import { UsersPage } from '../../features/users/components/users-page.tsx';
import { useAppConfig } from '../app-config.ts';
import { useSessionLanguage } from '../use-session-language.ts';

/** Joins the session (organisation, locale) and the runtime configuration to the Users page. */
export function UsersRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const config = useAppConfig();
  const ready = useSessionLanguage(session.data?.locale, !session.isPending);
  const title = t('users.title');

  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <>
      {!ready && <FullPageLoader label={t('common.loading')} />}
      {/* Mounted while hidden, so the users list loads alongside the language's texts. */}
      <Box hidden={!ready}>
        <UsersPage
          // A new page once the session names the organisation: its list query then mounts instead
          // of switching keys, so a list call that failed before (main.tsx starts it early) is
          // shown, not made again (no retry on mount, SPEC.md §9). Still hidden then: nothing is lost.
          key={session.data ? `org:${session.data.org_id}` : 'no-session'}
          orgId={session.data?.org_id}
          sessionFailed={session.isError}
          onRetrySession={() => void session.refetch()}
          homeUrl={config.homeUrl}
          launchpadUrl={config.launchpadUrl}
          supportUrl={config.supportUrl}
        />
      </Box>
    </>
  );
}
