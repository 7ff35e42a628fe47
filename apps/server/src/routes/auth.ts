import { orgIdSchema, type SessionClaims } from '@users-admin/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { z } from 'zod';
import { OIDC_SCOPES } from '../auth/identity-provider.ts';
import { IDP_MESSAGES } from '../auth/idp-messages.ts';
import type { OidcClient } from '../auth/oidc-client.ts';
import { safeRedirectPath } from '../auth/redirect-path.ts';
import { cookieOptions, type SessionStore } from '../auth/sessions.ts';
import { languageOf, renderErrorPage, renderSignedOutPage, sendHtml } from '../auth/sign-in-page.ts';
import type { Config } from '../config.ts';
import type { AccountsRepository } from '../repositories/accounts-repository.ts';

const TRANSACTION_COOKIE = 'auth_tx';
type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>;

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
  expiresAt: z.number(),
});
type Transaction = z.infer<typeof transactionSchema>;

/**
 * Sign-ins under way in this browser, newest last: a silent renewal in one tab must not spoil a
 * full sign-in waiting at the provider's form in another, so each callback finds its own by state.
 */
const MAX_PENDING_TRANSACTIONS = 3;
const TRANSACTION_TTL_SECONDS = 600;
const pendingSchema = z.array(transactionSchema).max(MAX_PENDING_TRANSACTIONS);

/**
 * The server side of sign-in (SPEC.md §7): `/auth/start` begins an authorization-code flow with
 * PKCE, `/auth/callback` ends it and opens a session, `/auth/logout` ends it everywhere.
 * Long as a plugin is: its routes share the cookie and issuer helpers above them, each handler short.
 */
export async function authRoutes(
  app: FastifyInstance,
  options: {
    config: Config;
    oidc: OidcClient;
    sessions: SessionStore;
    accounts: AccountsRepository;
    /** An external sign-in by an invitee: accepts the invitation this browser opened, if it is theirs. */
    acceptInvitation?: (request: FastifyRequest, orgId: string, email: string) => Promise<boolean>;
  },
) {
  const { config, oidc, sessions } = options;
  const { publicUrl, externalIssuer } = config;
  const redirectUri = `${publicUrl}/auth/callback`;
  const transactionCookie = { ...cookieOptions(publicUrl, '/auth'), maxAge: TRANSACTION_TTL_SECONDS };

  /** The unexpired sign-ins of the transaction cookie; none when it is absent, forged or not of this shape. */
  const pendingTransactions = (request: FastifyRequest): Transaction[] => {
    const raw = request.cookies[TRANSACTION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    if (!unsigned?.valid || !unsigned.value) return [];
    try {
      return pendingSchema
        .parse(JSON.parse(unsigned.value))
        .filter((transaction) => transaction.expiresAt > Date.now());
    } catch {
      return [];
    }
  };
  const keepPending = (reply: FastifyReply, pending: Transaction[]) => {
    if (pending.length === 0) reply.clearCookie(TRANSACTION_COOKIE, { path: '/auth' });
    else reply.setCookie(TRANSACTION_COOKIE, JSON.stringify(pending), transactionCookie);
  };

  /**
   * The issuer's metadata, or undefined once the answer is sent: an issuer that cannot be reached
   * is a 503 that says so (a silent sign-in ends as `temporarily_unavailable`), never a stack.
   */
  const issuerConfiguration = async (request: FastifyRequest, reply: FastifyReply, silent = false) => {
    try {
      return await oidc.configuration();
    } catch (error) {
      request.log.error({ issuer: oidc.issuer, err: error }, 'the OpenID issuer cannot be reached');
      if (silent) {
        reply.redirect(`/oidc/callback?${new URLSearchParams({ status: 'error', error: 'temporarily_unavailable' })}`);
      } else {
        reply
          .code(503)
          .header('retry-after', '30')
          .type('text/plain; charset=utf-8')
          .send(`The identity provider (${oidc.issuer}) cannot be reached. Please try again in a moment.`);
      }
      return undefined;
    }
  };

  app.get('/auth/start', async (request, reply) => {
    const query = startQuery.safeParse(request.query);
    const params = query.success ? query.data : {};
    reply.header('cache-control', 'no-store');
    const configuration = await issuerConfiguration(request, reply, params.callback_mode === 'silent');
    if (!configuration) return reply;
    const transaction: Transaction = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      redirectPath: safeRedirectPath(params.post_auth_redirect_path, publicUrl),
      silent: params.callback_mode === 'silent',
      expiresAt: Date.now() + TRANSACTION_TTL_SECONDS * 1000,
    };
    const authorizationUrl = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: externalIssuer ? config.scopes : OIDC_SCOPES,
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
      code_challenge_method: 'S256',
      ...(transaction.silent ? { prompt: 'none' } : params.prompt ? { prompt: params.prompt } : {}),
      ...(params.ui_locales ? { ui_locales: params.ui_locales } : {}),
    });
    keepPending(reply, [...pendingTransactions(request), transaction].slice(-MAX_PENDING_TRANSACTIONS));
    return reply.redirect(authorizationUrl.href);
  });

  /**
   * A sign-in's claims: the ID token's, with the userinfo endpoint's when the org claim is not among them.
   * An external issuer's subjects are not our ids: its sign-in stands for the active membership of the org
   * claim's organisation whose account has the e-mail claim, and for nobody (undefined) without one.
   */
  const sessionClaimsOf = async (request: FastifyRequest, configuration: client.Configuration, tokens: Tokens) => {
    const idClaims: Record<string, unknown> = tokens.claims() ?? {};
    let claims: Record<string, unknown> = idClaims;
    if (claims[config.orgClaim] === undefined) {
      const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, String(idClaims.sub));
      claims = { ...userInfo, ...idClaims };
    }
    const sessionClaims: SessionClaims = {
      sub: String(claims.sub),
      org_id: String(claims[config.orgClaim] ?? ''),
      locale: String(claims[config.localeClaim] ?? 'en'),
      name: String(claims.name ?? ''),
      email: String(claims.email ?? ''),
    };
    if (!externalIssuer) return sessionClaims;
    const { email, org_id } = sessionClaims;
    // An issuer that says the address is not verified does not get to choose whose membership it is.
    const trusted = email && claims.email_verified !== false && orgIdSchema.safeParse(org_id).success;
    const find = () => options.accounts.findMembershipByEmail(org_id, email);
    let membership = trusted ? await find() : undefined;
    if (trusted && !membership && (await options.acceptInvitation?.(request, org_id, email))) membership = await find();
    if (membership) return { ...sessionClaims, sub: membership.userId, name: sessionClaims.name || membership.name };
    request.log.warn(
      { issuer: oidc.issuer, sub: sessionClaims.sub, org_id: sessionClaims.org_id },
      'signed in at the external issuer, but no active user of that organisation has that e-mail address',
    );
    return undefined;
  };

  app.get('/auth/callback', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const pending = pendingTransactions(request);
    const { state } = request.query as Record<string, unknown>;
    const own = pending.find((candidate) => candidate.state === state);
    keepPending(
      reply,
      pending.filter((candidate) => candidate !== own),
    );
    // Without its own transaction, the newest one says whether the answer goes to a hidden frame.
    const transaction = own ?? pending.at(-1);
    if (!transaction) {
      const { expired } = IDP_MESSAGES[languageOf(request)].error;
      return reply.code(400).type('text/plain; charset=utf-8').send(expired);
    }
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
      return sendHtml(reply, renderErrorPage(languageOf(request), code, undefined), 400);
    };
    if (typeof state !== 'string' || state !== transaction.state) return refuse('invalid_state');

    try {
      const configuration = await oidc.configuration();
      const currentUrl = new URL(request.url, publicUrl);
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: transaction.verifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
      });
      const claims = await sessionClaimsOf(request, configuration, tokens);
      if (!claims) return finish('error', 'access_denied');
      await sessions.destroy(request, reply);
      await sessions.create(reply, {
        claims,
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
    const configuration = await issuerConfiguration(request, reply);
    if (!configuration) return reply;
    const uiLocales = logoutQuery.safeParse(request.query).data?.ui_locales;
    if (!configuration.serverMetadata().end_session_endpoint) {
      // An issuer without RP-initiated logout: its sign-in outlives ours, so the browser must not
      // land on the page, whose silent sign-in would open a new session at once.
      return reply.redirect(`/auth/signed-out${uiLocales ? `?${new URLSearchParams({ ui_locales: uiLocales })}` : ''}`);
    }
    const endSession = client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: `${publicUrl}/`,
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
    return reply.redirect(endSession.href);
  });

  app.get('/auth/signed-out', async (request, reply) => {
    const language = languageOf(request, logoutQuery.safeParse(request.query).data?.ui_locales);
    return sendHtml(reply, renderSignedOutPage(language));
  });
}
