import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { paths } from '../../config/paths.ts';

/**
 * Where a failed visible sign-in lands (`?error=…`). It shows only a loading indicator and goes
 * to the Users page, whose session lookup starts a fresh sign-in.
 */
export function LoginCallbackRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const error = new URLSearchParams(window.location.search).get('error');
    if (error) console.warn(`Sign-in failed: ${error}`);
    navigate(paths.users, { replace: true });
  }, [navigate]);
  return <FullPageLoader label={t('auth.signingIn')} />;
}
