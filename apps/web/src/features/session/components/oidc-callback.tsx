import type { OidcCallbackMessage } from '@users-admin/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';

/** Reads `?status=success` or `?status=error&error=…` into the message the parent frame waits for. */
export function toCallbackMessage(search: string): OidcCallbackMessage {
  const params = new URLSearchParams(search);
  if (params.get('status') === 'success') return { type: 'oidc_callback', status: 'success' };
  return { type: 'oidc_callback', status: 'error', error: params.get('error') || 'server_error' };
}

/**
 * The end of the silent sign-in, loaded inside the hidden frame: it tells the parent page how it
 * went (same origin only) and shows nothing but a loading indicator. Opened on its own, it goes home.
 */
export function OidcCallback() {
  const { t } = useTranslation();
  useEffect(() => {
    const message = toCallbackMessage(window.location.search);
    if (window.parent !== window) {
      window.parent.postMessage(message, window.location.origin);
    } else {
      window.location.replace('/');
    }
  }, []);
  return <FullPageLoader label={t('auth.signingIn')} />;
}
