import { isSupportUrl, SUPPORT_URL_DEFAULT } from '@users-admin/contract';

/**
 * Contact support: a `mailto:` address goes to the mail client (the page stays), an https one opens
 * in a new tab. No call is made. An address that is neither (a bad setting) gives the default.
 */
export function openSupport(url: string | undefined, win: Pick<Window, 'open' | 'location'> = window): void {
  const target = url && isSupportUrl(url) ? url : SUPPORT_URL_DEFAULT;
  if (target.toLowerCase().startsWith('mailto:')) win.location.assign(target);
  else win.open(target, '_blank', 'noopener,noreferrer');
}
