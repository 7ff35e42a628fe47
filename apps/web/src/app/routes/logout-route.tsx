import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../../components/full-page-loader.tsx';
import { SERVER_LOGOUT_PATH } from '../../config/paths.ts';
import { rememberedLanguage } from '../../lib/i18n/remembered-language.ts';

/** Signs out on the server and at the identity provider. */
export function LogoutRoute() {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // The identity provider's sign-out pages then speak the language of the last session.
    const uiLocales = rememberedLanguage() ?? i18n.language;
    window.location.assign(`${SERVER_LOGOUT_PATH}?${new URLSearchParams({ ui_locales: uiLocales })}`);
  }, [i18n]);
  return <FullPageLoader label={t('auth.signingOut')} />;
}
