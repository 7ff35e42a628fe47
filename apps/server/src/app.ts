import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createIdentityProvider, EMBEDDED_CLIENT_ID, EMBEDDED_ISSUER_PATH } from './auth/identity-provider.ts';
import { createOidcClient } from './auth/oidc-client.ts';
import { loadSecrets } from './auth/secrets.ts';
import { createSessionStore } from './auth/sessions.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { identityProviderPlugin } from './plugins/identity-provider.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import { createAccountsRepository } from './repositories/accounts-repository.ts';
import { createUsersRepository } from './repositories/users-repository.ts';
import { appConfigRoutes } from './routes/app-config.ts';
import { authRoutes } from './routes/auth.ts';
import { microFrontendRoutes } from './routes/micro-frontends.ts';
import { sessionRoutes } from './routes/session.ts';
import { usersRoutes } from './routes/users.ts';

/** Builds the server: plugins first, then the identity provider, then the routes. */
export async function buildApp(config: Config, database: DatabaseHandle): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { db } = database;
  const secrets = await loadSecrets(db, config.sessionSecret);
  const secure = config.publicUrl.startsWith('https:');
  const accounts = createAccountsRepository(db);
  const users = createUsersRepository(db);
  const sessions = createSessionStore(db, { secure, ttlSeconds: config.sessionTtlSeconds });

  await app.register(errorHandlerPlugin);
  await app.register(cookie, { secret: secrets.cookieSecret });
  await app.register(openApiPlugin);

  let oidcClientOptions = config.externalIssuer;
  if (!oidcClientOptions) {
    const provider = createIdentityProvider({
      db,
      accounts,
      secrets,
      publicUrl: config.publicUrl,
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      sessionTtlSeconds: config.idpSessionTtlSeconds,
    });
    await app.register(identityProviderPlugin, { provider, accounts });
    oidcClientOptions = {
      issuer: `${config.publicUrl}${EMBEDDED_ISSUER_PATH}`,
      clientId: EMBEDDED_CLIENT_ID,
      clientSecret: secrets.clientSecret,
    };
  }

  await app.register(authRoutes, {
    oidc: createOidcClient(oidcClientOptions),
    sessions,
    publicUrl: config.publicUrl,
    secure,
    orgClaim: config.orgClaim,
    localeClaim: config.localeClaim,
  });
  await app.register(appConfigRoutes, { config: config.app });
  await app.register(sessionRoutes, { sessions });
  await app.register(usersRoutes, { sessions, users });
  await app.register(microFrontendRoutes);
  await app.register(webAppPlugin, { webDist: config.webDist, appConfig: config.app });
  return app;
}
