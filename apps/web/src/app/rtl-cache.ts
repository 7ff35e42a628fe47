import createCache from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

/**
 * MUI's documented right-to-left set-up: an emotion cache whose stylis plugins mirror every rule
 * (margin-left becomes margin-right…). Its own chunk, loaded only when such a language is shown.
 */
export function createRtlCache() {
  return createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
}
