import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { SERVER_LOGOUT_PATH } from '../../config/paths.ts';

/** Signs out on the server and at the identity provider. */
export function LogoutRoute() {
  const { t } = useTranslation();
  useEffect(() => {
    window.location.assign(SERVER_LOGOUT_PATH);
  }, []);
  return <FullPageLoader label={t('auth.signingOut')} />;
}
