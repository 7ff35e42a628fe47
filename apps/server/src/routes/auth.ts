import type { SessionClaims } from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import { z } from 'zod';
import { OIDC_SCOPES } from '../auth/identity-provider.ts';
import { chooseIdpLanguage, idpMessages } from '../auth/idp-messages.ts';
import type { OidcClient } from '../auth/oidc-client.ts';
import { safeRedirectPath } from '../auth/redirect-path.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { renderErrorPage } from '../auth/sign-in-page.ts';

const TRANSACTION_COOKIE = 'auth_tx';

const startQuery = z.object({
  post_auth_redirect_path: z.string().optional(),
  resource: z.string().optional(),
  callback_mode: z.enum(['silent', 'redirect']).optional(),
  prompt: z.enum(['none', 'login']).optional(),
  // The page's language, for the identity provider's pages (OIDC `ui_locales`: tags separated by spaces).
  ui_locales: z.string().max(100).optional(),
});

const logoutQuery = z.object({ ui_locales: z.string().max(100).optional() });

const transactionSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  redirectPath: z.string(),
  silent: z.boolean(),
});
type Transaction = z.infer<typeof transactionSchema>;

export interface AuthRoutesOptions {
  oidc: OidcClient;
  sessions: SessionStore;
  publicUrl: string;
  /** `'auto'`: Secure when the request arrived over https (directly or from a trusted proxy). */
  secure: boolean | 'auto';
  orgClaim: string;
  localeClaim: string;
}

/**
 * The server side of sign-in (SPEC.md §7): `/auth/start` begins an authorization-code flow with
 * PKCE, `/auth/callback` ends it and opens a session, `/auth/logout` ends it everywhere.
 */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const { oidc, sessions, publicUrl } = options;
  const redirectUri = `${publicUrl}/auth/callback`;
  const transactionCookie = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: options.secure,
    path: '/auth',
    signed: true,
    maxAge: 600,
  };

  app.get('/auth/start', async (request, reply) => {
    const query = startQuery.safeParse(request.query);
    const params = query.success ? query.data : {};
    const configuration = await oidc.configuration();
    const transaction: Transaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectPath: safeRedirectPath(params.post_auth_redirect_path, publicUrl),
      silent: params.callback_mode === 'silent',
    };
    const authorizationUrl = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: OIDC_SCOPES,
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
      ...(transaction.silent ? { prompt: 'none' } : params.prompt ? { prompt: params.prompt } : {}),
      ...(params.ui_locales ? { ui_locales: params.ui_locales } : {}),
    });
    reply.setCookie(TRANSACTION_COOKIE, JSON.stringify(transaction), transactionCookie);
    reply.header('cache-control', 'no-store');
    return reply.redirect(authorizationUrl.href);
  });

  app.get('/auth/callback', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const raw = request.cookies[TRANSACTION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    reply.clearCookie(TRANSACTION_COOKIE, { path: '/auth' });
    const parsed =
      unsigned?.valid && unsigned.value ? transactionSchema.safeParse(safeJson(unsigned.value)) : undefined;
    if (!parsed?.success) {
      const language = chooseIdpLanguage({ acceptLanguage: request.headers['accept-language'] });
      return reply.code(400).type('text/plain; charset=utf-8').send(idpMessages(language).error.expired);
    }
    const transaction = parsed.data;
    const finish = (status: 'success' | 'error', error?: string) => {
      if (transaction.silent) {
        const params = new URLSearchParams({ status, ...(error ? { error } : {}) });
        return reply.redirect(`/oidc/callback?${params}`);
      }
      if (status === 'success') return reply.redirect(transaction.redirectPath);
      const params = new URLSearchParams({ error: error ?? 'server_error' });
      return reply.redirect(`/login/callback?${params}`);
    };

    // A callback this browser's transaction did not ask for (a code sent to someone else, a replay,
    // a response that fails validation) is refused with a page that says so. A silent sign-in still
    // answers through /oidc/callback: only that page can tell the waiting page in the frame.
    const refuse = (code: string) => {
      request.log.warn({ code }, 'sign-in callback refused');
      if (transaction.silent) return finish('error', code);
      const language = chooseIdpLanguage({ acceptLanguage: request.headers['accept-language'] });
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(renderErrorPage(language, code, undefined));
    };
    const { state } = request.query as Record<string, unknown>;
    if (typeof state !== 'string' || state !== transaction.state) return refuse('invalid_state');

    try {
      const configuration = await oidc.configuration();
      const currentUrl = new URL(request.url, publicUrl);
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: transaction.verifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
      });
      const idClaims: Record<string, unknown> = tokens.claims() ?? {};
      let claims: Record<string, unknown> = idClaims;
      if (claims[options.orgClaim] === undefined) {
        const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, String(idClaims.sub));
        claims = { ...userInfo, ...idClaims };
      }
      const sessionClaims: SessionClaims = {
        sub: String(claims.sub),
        org_id: String(claims[options.orgClaim] ?? ''),
        locale: String(claims[options.localeClaim] ?? 'en'),
        name: String(claims.name ?? ''),
        email: String(claims.email ?? ''),
      };
      await sessions.destroy(request, reply);
      await sessions.create(reply, {
        claims: sessionClaims,
        idToken: tokens.id_token,
        accessTokenExpiresAt: new Date(Date.now() + (tokens.expiresIn() ?? 300) * 1000),
      });
      return finish('success');
    } catch (error) {
      // The identity provider said no (login_required, access_denied…): the page deals with it.
      if (error instanceof client.AuthorizationResponseError) return finish('error', error.error);
      // The token endpoint refused the code: replayed, expired, or not this PKCE verifier's.
      if (error instanceof client.ResponseBodyError) return refuse(error.error);
      // The answer failed a check of openid-client (the ID token's nonce, issuer, audience…).
      if (error instanceof client.ClientError && error.code?.startsWith('OAUTH_')) return refuse('invalid_response');
      request.log.error({ err: error }, 'sign-in callback failed');
      return finish('error', 'server_error');
    }
  });

  app.get('/auth/logout', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const idToken = await sessions.destroy(request, reply);
    const configuration = await oidc.configuration();
    const uiLocales = logoutQuery.safeParse(request.query).data?.ui_locales;
    const endSession = client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: `${publicUrl}/`,
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
    return reply.redirect(endSession.href);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
