import { z } from 'zod';

export const SUPPORTED_LOCALES = ['de', 'en', 'es', 'fr', 'it', 'ja', 'nl', 'pt', 'zh'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = 'en';

/** The answer of `GET /apis/oidc/userinfo`: the signed-in session's claims (SPEC.md §3, §7). */
export const sessionClaimsSchema = z.object({
  sub: z.string(),
  org_id: z.string(),
  locale: z.string(),
  name: z.string(),
  email: z.string(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

/** The OAuth-style error the session lookup answers when it cannot answer claims. */
export const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});
export type OAuthError = z.infer<typeof oauthErrorSchema>;

export const SESSION_PATH = '/apis/oidc/userinfo';
export const AUTH_START_PATH = '/auth/start';

/** The message the silent sign-in frame posts to its parent (SPEC.md §7). */
export type OidcCallbackMessage =
  | { type: 'oidc_callback'; status: 'success' }
  | { type: 'oidc_callback'; status: 'error'; error: string };
