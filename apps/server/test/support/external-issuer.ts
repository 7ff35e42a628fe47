import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';
import { freePort } from './test-server.ts';

export interface ExternalAccount {
  username: string;
  password: string;
  /** Every claim of the account, `sub` included; each is released by the scope that lists it. */
  claims: Record<string, unknown> & { sub: string };
}

export interface ExternalIssuerOptions {
  /** Where the relying party (our server) listens: its /auth/callback and / are registered. */
  relyingPartyUrl: string;
  clientId: string;
  clientSecret: string;
  accounts: ExternalAccount[];
  /** The provider's scopes and the claims each releases (the claim names are the issuer's own). */
  claims: Record<string, string[]>;
  /** RP-initiated logout (an `end_session_endpoint`); on unless said otherwise. */
  endSession?: boolean;
}

export interface ExternalIssuer {
  issuer: string;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return new URLSearchParams(text);
}

/**
 * An independent OpenID issuer for tests: panva's oidc-provider on its own loopback port, with a
 * static confidential client, its own sign-in form (username and password) and its own accounts.
 * It shares nothing with the server under test: not the database, not the keys, not the code.
 * Long as one piece: the provider's configuration, its form and its server are one issuer's setup.
 */
export async function startExternalIssuer(options: ExternalIssuerOptions): Promise<ExternalIssuer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const byUsername = new Map(options.accounts.map((account) => [account.username, account]));
  const bySub = new Map(options.accounts.map((account) => [account.claims.sub, account]));

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [`${options.relyingPartyUrl}/auth/callback`],
        post_logout_redirect_uris: [`${options.relyingPartyUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const account = bySub.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => account.claims };
    },
    claims: options.claims,
    scopes: Object.keys(options.claims),
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Grant: 3600, Session: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: options.endSession ?? true,
        async logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = page(
            'Sign out of Example ID',
            `${form}<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>`,
          );
        },
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  const handleProvider = provider.callback();

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const uid = /^\/interaction\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (!uid) return void handleProvider(request, response);
    try {
      const details = await provider.interactionDetails(request, response);
      const signInForm = (error = '') =>
        page(
          'Example ID',
          `${error}<form method="post" action="/interaction/${uid}"><label for="username">Username</label><input id="username" name="username"><label for="password">Password</label><input id="password" name="password" type="password"><button type="submit">Log in</button></form>`,
        );
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInForm());
        return;
      }
      const body = await formBody(request);
      const account = byUsername.get(body.get('username') ?? '');
      if (!account || account.password !== body.get('password')) {
        response.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(signInForm('<p>Wrong.</p>'));
        return;
      }
      // The client is this issuer's own registration: the person consents by signing in.
      const grant = new provider.Grant({ accountId: account.claims.sub, clientId: options.clientId });
      grant.addOIDCScope(String(details.params.scope ?? 'openid'));
      const grantId = await grant.save();
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: account.claims.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
