import { SUPPORTED_LOCALES } from '@users-admin/contract';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';
import type { AccountsRepository } from '../repositories/accounts-repository.ts';
import { chooseIdpLanguage } from './idp-messages.ts';
import { createOidcAdapterClass } from './oidc-adapter.ts';
import type { Secrets } from './secrets.ts';
import { renderErrorPage, renderSignedOutPage, renderSignOutPage } from './sign-in-page.ts';

export const EMBEDDED_ISSUER_PATH = '/idp';
export const EMBEDDED_CLIENT_ID = 'users-admin';
export const OIDC_SCOPES = 'openid email profile org';

/** The provider's session cookie (its default options, named so that sign-out can clear it). */
const SESSION_COOKIE = { httpOnly: true, sameSite: 'lax' } as const;

/**
 * RP-initiated sign-out that carries an ID token the provider issued to a client for the person
 * signed in here (checked by the provider before `logoutSource` runs): ends the provider's session
 * at once, as the confirmation page's "Sign out" would, and goes back to the client. The page
 * would only ask a question whose answer the request already gave, and a page that submits
 * itself needs an inline script, which the Content-Security-Policy forbids. Without such a hint
 * (a bare link to /idp/session/end, another person's token) the page still asks.
 */
async function endSessionAskedByItsClient(ctx: KoaContextWithOIDC): Promise<boolean> {
  const { session, client, params, entities, provider } = ctx.oidc;
  const hint = entities.IdTokenHint;
  if (!client || !hint || !session?.accountId || !params || hint.payload.sub !== session.accountId) return false;
  for (const { grantId } of Object.values(session.authorizations ?? {})) {
    if (!grantId) continue;
    // The adapter's revokeByGrantId removes every token and code of the grant, whatever its model.
    await provider.AccessToken.revokeByGrantId(grantId);
    await (await provider.Grant.find(grantId))?.destroy();
  }
  await session.destroy();
  ctx.cookies.set(provider.cookieName('session'), null, SESSION_COOKIE);
  const back = params.post_logout_redirect_uri;
  const target = new URL(typeof back === 'string' ? back : ctx.oidc.urlFor('end_session_success'));
  if (typeof back === 'string' && typeof params.state === 'string') target.searchParams.set('state', params.state);
  provider.emit('end_session.success', ctx);
  ctx.status = 303;
  ctx.redirect(target.href);
  return true;
}

/** The language of a page the provider renders: the request's `ui_locales`, else Accept-Language. */
function pageLanguage(ctx: KoaContextWithOIDC) {
  return chooseIdpLanguage({ uiLocales: ctx.oidc?.params?.ui_locales, acceptLanguage: ctx.get('accept-language') });
}

/**
 * The embedded OpenID provider (panva's oidc-provider) used by default. The subject of a sign-in
 * is the user's id in the organisation signed into, so its claims carry that `org_id`.
 * Long as the provider's configuration object is, which reads best in one piece.
 */
export function createIdentityProvider(
  config: Config,
  { db, accounts, secrets }: { db: Db; accounts: AccountsRepository; secrets: Secrets },
): Provider {
  const { publicUrl, accessTokenTtlSeconds, idpSessionTtlSeconds } = config;
  const configuration: Configuration = {
    adapter: createOidcAdapterClass(db),
    clients: [
      {
        client_id: EMBEDDED_CLIENT_ID,
        client_secret: secrets.clientSecret,
        redirect_uris: [`${publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const membership = await accounts.findMembership(sub);
      if (!membership) return undefined;
      const { email, name, locale, orgId: org_id } = membership;
      return { accountId: sub, claims: async () => ({ sub, email, name, locale, org_id }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['name', 'locale'],
      org: ['org_id'],
    },
    scopes: ['openid', 'email', 'profile', 'org'],
    conformIdTokenClaims: false,
    discovery: { ui_locales_supported: [...SUPPORTED_LOCALES] },
    cookies: { keys: secrets.providerCookieKeys, long: SESSION_COOKIE },
    jwks: { keys: [secrets.signingKey] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: accessTokenTtlSeconds,
      Interaction: 3600,
      Session: idpSessionTtlSeconds,
      Grant: idpSessionTtlSeconds,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          if (await endSessionAskedByItsClient(ctx)) return;
          ctx.type = 'html';
          ctx.body = renderSignOutPage(pageLanguage(ctx), form);
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = renderSignedOutPage(pageLanguage(ctx));
        },
      },
    },
    async renderError(ctx, out, error) {
      // The database is down: "try again shortly" (503), not a fault of the provider (500).
      if (isDatabaseUnavailable(error)) ctx.status = 503;
      ctx.type = 'html';
      ctx.body = renderErrorPage(pageLanguage(ctx), String(out.error), out.error_description);
    },
    // The Users page is a first-party client: the grant is made at sign-in, no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(OIDC_SCOPES);
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(`${publicUrl}${EMBEDDED_ISSUER_PATH}`, configuration);
  // It reads the scheme, host and client address from X-Forwarded-*, which the plugin mounting it
  // sets from Fastify's own conclusion under TRUST_PROXY (identity-provider plugin).
  provider.proxy = true;
  answerDatabaseOutagesWith503(provider);
  return provider;
}

/**
 * The provider's JSON endpoints (token, userinfo, revocation…) answer an error they did not expect
 * with 500 `server_error`. A database outage is not the provider's fault and passes: they answer it
 * 503 `temporarily_unavailable` with Retry-After, as the rest of the server does (its HTML pages
 * already say so through `renderError`).
 */
function answerDatabaseOutagesWith503(provider: Provider): void {
  const outages = new WeakSet<object>();
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    if (isDatabaseUnavailable(error)) outages.add(ctx);
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!outages.has(ctx)) return;
    ctx.status = 503;
    ctx.set('Retry-After', '5');
    if (ctx.response.type !== 'text/html') {
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: 'the database is unavailable; try again shortly',
      };
    }
  });
}
