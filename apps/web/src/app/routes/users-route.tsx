import { useEffect } from 'react';
import { useSession } from '../../features/session/api/get-session.ts';
import { UsersPage } from '../../features/users/components/users-page.tsx';
import { loadStartupScripts, useAppConfig } from '../app-config.ts';
import { applyLocale } from '../i18n.ts';

/** Joins the session (organisation, locale) and the runtime configuration to the Users page. */
export function UsersRoute() {
  const session = useSession();
  const config = useAppConfig();
  const locale = session.data?.locale;

  useEffect(() => {
    if (locale) void applyLocale(locale);
  }, [locale]);

  useEffect(() => {
    loadStartupScripts(config);
  }, [config]);

  return (
    <UsersPage
      orgId={session.data?.org_id}
      sessionFailed={session.isError}
      onRetrySession={() => void session.refetch()}
      homeUrl={config.homeUrl}
      launchpadUrl={config.launchpadUrl}
    />
  );
}
