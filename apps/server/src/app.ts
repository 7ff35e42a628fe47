import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createIdentityProvider, EMBEDDED_CLIENT_ID, EMBEDDED_ISSUER_PATH } from './auth/identity-provider.ts';
import {
  acceptOnExternalSignIn,
  invitationInteraction,
  invitationLinkRoute,
  invitationSignInPage,
} from './auth/invitation-sign-in.ts';
import { createOidcClient } from './auth/oidc-client.ts';
import { loadSecrets } from './auth/secrets.ts';
import { createSessionStore } from './auth/sessions.ts';
import { createSignInLimiter } from './auth/sign-in-limiter.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createMailSender } from './mail/mail-sender.ts';
import { refuseCrossSiteRequests } from './plugins/cross-site-requests.ts';
import { errorHandlerPlugin, sendFrameworkError } from './plugins/error-handler.ts';
import { identityProviderPlugin } from './plugins/identity-provider.ts';
import { loggerOptions, REQUEST_ID_HEADER, requestIdFor } from './plugins/logging.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { createSecurityHeaders } from './plugins/security-headers.ts';
import { webAppPlugin } from './plugins/web-app.ts';
import { createAccountsRepository } from './repositories/accounts-repository.ts';
import { createInvitations } from './repositories/invitations-repository.ts';
import { createJobsRepository } from './repositories/jobs-repository.ts';
import { createUsersExportRepository } from './repositories/users-export-repository.ts';
import { createUsersRepository } from './repositories/users-repository.ts';
import { appConfigRoutes } from './routes/app-config.ts';
import { auditEventsRoutes } from './routes/audit-events.ts';
import { authRoutes } from './routes/auth.ts';
import { healthRoutes } from './routes/health.ts';
import { jobsRoutes } from './routes/jobs.ts';
import { microFrontendRoutes } from './routes/micro-frontends.ts';
import { preferencesRoutes } from './routes/preferences.ts';
import { sessionRoutes } from './routes/session.ts';
import { userActionsRoutes } from './routes/user-actions.ts';
import { usersRoutes } from './routes/users.ts';
import { usersExportRoutes } from './routes/users-export.ts';

/**
 * Builds the server: plugins first, then the identity provider, then the routes. One list of
 * registrations in their order, which reads best in one piece.
 */
export async function buildApp(
  config: Config,
  database: DatabaseHandle,
  onStage: (name: string) => void = () => {},
): Promise<FastifyInstance> {
  onStage('building the server');
  const securityHeaders = createSecurityHeaders({
    app: config.app,
    externalIssuer: config.externalIssuer?.issuer,
    https: config.publicUrl.startsWith('https:'),
  });
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : loggerOptions(config.logLevel),
    requestIdHeader: false,
    genReqId: requestIdFor,
    trustProxy: config.trustProxy,
    // Answers Fastify makes before routing (a malformed URL) get the same headers and error document.
    frameworkErrors: (error, request, reply) => {
      securityHeaders(request.raw, reply.raw);
      return sendFrameworkError(error, reply);
    },
    // On close (SIGTERM): a request on a kept-alive connection gets 503, idle connections are closed.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { db } = database;
  onStage('loading the secrets');
  const secrets = await loadSecrets(db, config.sessionSecret);
  const accounts = createAccountsRepository(db);
  const users = createUsersRepository(db);
  const sessions = createSessionStore(db, { publicUrl: config.publicUrl, ttlSeconds: config.sessionTtlSeconds });
  const { smtpUrl, mailFrom: from } = config;
  const mail = smtpUrl ? createMailSender(db, { smtpUrl, from, log: app.log }) : undefined;
  const invitations = createInvitations(config, app.log, mail);
  app.addHook('onListen', async () => mail?.start());
  app.addHook('onClose', async () => mail?.stop());

  // First thing, on the raw response, so that they are also on the answers Fastify never sees being
  // made: the identity provider's (hijacked) and the ones written straight to the socket.
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    securityHeaders(request.raw, reply.raw);
  });
  onStage('registering the plugins and routes');
  await app.register(errorHandlerPlugin);
  app.addHook('onRequest', refuseCrossSiteRequests(config.publicUrl));
  // The API's and the page's answers of 1 KB or more, by Accept-Encoding, Brotli at a quality fast enough
  // per request. Not the built files: they are sent as their compressed copies, or as they are when small.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/apis/') || route.url === '/*') route.compress ??= {};
  });
  await app.register(compress, {
    global: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie, { secret: secrets.cookieSecret });
  await app.register(openApiPlugin);

  let oidcClientOptions = config.externalIssuer;
  if (!oidcClientOptions) {
    const provider = createIdentityProvider(config, { db, accounts, secrets });
    const limiter = createSignInLimiter(db, config.signInLimits);
    await app.register(identityProviderPlugin, {
      provider,
      accounts,
      limiter,
      interactionPage: (request, uid) => invitationSignInPage(db, request, uid),
      moreInteractions: (scope) => invitationInteraction(scope, { db, provider }),
    });
    oidcClientOptions = {
      issuer: `${config.publicUrl}${EMBEDDED_ISSUER_PATH}`,
      clientId: EMBEDDED_CLIENT_ID,
      clientSecret: secrets.clientSecret,
    };
  }

  const oidc = createOidcClient(oidcClientOptions);
  await app.register(authRoutes, { config, oidc, sessions, accounts, acceptInvitation: acceptOnExternalSignIn(db) });
  if (config.externalIssuer) {
    // Said once at start-up, in one line: the server still starts, and sign-in answers 503 until
    // the issuer answers (discovery is retried on each sign-in).
    app.addHook('onListen', async () => {
      try {
        await oidc.configuration();
        app.log.info({ issuer: oidc.issuer }, 'signing in with the external OpenID issuer');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        app.log.error(`OIDC_ISSUER ${oidc.issuer} cannot be reached (${reason}): sign-in answers 503 until it can`);
      }
    });
  }
  await app.register(healthRoutes, { db });
  await app.register(appConfigRoutes, { config: config.app });
  await app.register(sessionRoutes, { sessions });
  await app.register(usersRoutes, { sessions, users });
  await app.register(usersExportRoutes, { sessions, exports: createUsersExportRepository(db, users) });
  const jobs = createJobsRepository(db, users);
  await app.register(userActionsRoutes, { db, sessions, users, jobs, invitations });
  await app.register(jobsRoutes, { sessions, jobs });
  await app.register(invitationLinkRoute, { db, config });
  await app.register(auditEventsRoutes, { db, sessions });
  await app.register(preferencesRoutes, { db, sessions });
  await app.register(microFrontendRoutes);
  onStage('serving the built page');
  await app.register(webAppPlugin, { config });
  return app;
}
