import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type Provider } from 'oidc-provider';
import { z } from 'zod';
import { EMBEDDED_ISSUER_PATH } from '../auth/identity-provider.ts';
import type { SignInLimiter } from '../auth/sign-in-limiter.ts';
import {
  IDP_CSS,
  languageOf,
  renderChooseOrganizationPage,
  renderErrorPage,
  renderSignInPage,
  sendHtml,
} from '../auth/sign-in-page.ts';
import type { AccountsRepository } from '../repositories/accounts-repository.ts';

// An address with a control character cannot be anyone's (and NUL cannot even be sent to PostgreSQL).
const emailSchema = z
  .string()
  .max(320)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
  .regex(/^[^\u0000-\u001f\u007f]*$/);
const signInBody = z.object({ email: emailSchema, password: z.string().max(1024) });
const chooseBody = z.object({ membership: z.string().max(64) });
const pendingLogin = z.object({ pendingLogin: z.object({ userIds: z.array(z.string()) }) });

/**
 * The raw request for the provider, its forwarded headers replaced by what Fastify concluded under
 * TRUST_PROXY. The provider trusts X-Forwarded-* (`provider.proxy`), so it sees the scheme, host
 * and client address the rest of the server sees: a forged X-Forwarded-Proto from an untrusted
 * peer no longer makes it set Secure cookies over plain http.
 */
export function asFastifySeesIt(request: FastifyRequest): FastifyRequest['raw'] {
  const { headers } = request.raw;
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-host'] = request.host;
  headers['x-forwarded-for'] = request.ip;
  return request.raw;
}

/**
 * Mounts the embedded OpenID provider at /idp and serves its interactions: the sign-in form,
 * then, for a person in several organisations, the choice of organisation. Long as a plugin is: each route short.
 */
export async function identityProviderPlugin(
  app: FastifyInstance,
  options: {
    provider: Provider;
    accounts: AccountsRepository;
    limiter: SignInLimiter;
    /** Another page instead of the sign-in form (an invitee's), and the routes it posts to. */
    interactionPage?: (request: FastifyRequest, uid: string) => Promise<string | undefined>;
    moreInteractions?: (scope: FastifyInstance) => void;
  },
) {
  const { provider, accounts, limiter } = options;
  const callback = provider.callback();

  // The provider reads request bodies itself, so Fastify must leave them unread under /idp.
  await app.register(async (idp) => {
    idp.removeAllContentTypeParsers();
    idp.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = asFastifySeesIt(request) as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url ?? '/';
      raw.url = (raw.url ?? '/').slice(EMBEDDED_ISSUER_PATH.length) || '/';
      await callback(raw, reply.raw);
    };
    idp.all(EMBEDDED_ISSUER_PATH, forward);
    idp.all(`${EMBEDDED_ISSUER_PATH}/*`, forward);
  });

  // Its pages are not compressed (`compress: false`): they answer what a request sent beside the sign-in's state.
  await app.register(async (interaction) => {
    await interaction.register(formbody);
    const finishLogin = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
      const redirectTo = await provider.interactionResult(
        asFastifySeesIt(request),
        reply.raw,
        { login: { accountId: userId } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(redirectTo, 303);
    };

    // The provider's refusals (an interaction that expired or never existed, a missing cookie) are
    // pages for a person: the error page in their language, with the provider's status.
    interaction.setErrorHandler((error, request, reply) => {
      if (!(error instanceof errors.OIDCProviderError) || error.statusCode >= 500) throw error;
      const page = renderErrorPage(languageOf(request), error.error, error.error_description);
      return sendHtml(reply, page, error.statusCode);
    });

    interaction.get('/interaction/idp.css', { compress: false }, (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(IDP_CSS),
    );

    // The pages speak the authorization request's `ui_locales`, else the browser's Accept-Language.
    interaction.get('/interaction/:uid', { compress: false }, async (request, reply) => {
      const details = await provider.interactionDetails(asFastifySeesIt(request), reply.raw);
      const instead = await options.interactionPage?.(request, details.uid);
      if (instead) return sendHtml(reply, instead);
      const language = languageOf(request, details.params.ui_locales);
      return sendHtml(reply, renderSignInPage({ language, action: `/interaction/${details.uid}/login` }));
    });
    options.moreInteractions?.(interaction);

    interaction.post('/interaction/:uid/login', { compress: false }, async (request, reply) => {
      const details = await provider.interactionDetails(asFastifySeesIt(request), reply.raw);
      const language = languageOf(request, details.params.ui_locales);
      const action = `/interaction/${details.uid}/login`;
      const body = signInBody.safeParse(request.body);
      const email = body.success ? body.data.email : '';
      // Counted before the password is checked: a refused attempt says nothing about the password.
      const verdict = body.success ? await limiter.attempt(email, request.ip) : { allowed: true as const };
      if (!verdict.allowed) {
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        return sendHtml(reply, renderSignInPage({ language, action, email, error: 'tooManyAttempts' }), 429);
      }
      const memberships = body.success ? await accounts.authenticate(email, body.data.password) : undefined;
      if (!memberships?.length) {
        const error = memberships ? 'noOrganization' : 'wrongCredentials';
        return sendHtml(reply, renderSignInPage({ language, action, email, error }), 401);
      }
      await limiter.succeeded(email, request.ip);
      const [only] = memberships;
      if (memberships.length === 1 && only) return finishLogin(request, reply, only.userId);
      // Several organisations: remember who signed in on the interaction (stored in the database).
      details.result = { pendingLogin: { userIds: memberships.map((m) => m.userId) } };
      await details.persist();
      const organizationAction = `/interaction/${details.uid}/organization`;
      return sendHtml(
        reply,
        renderChooseOrganizationPage({ language, action: organizationAction, organizations: memberships }),
      );
    });

    interaction.post('/interaction/:uid/organization', { compress: false }, async (request, reply) => {
      const details = await provider.interactionDetails(asFastifySeesIt(request), reply.raw);
      const pending = pendingLogin.safeParse(details.result);
      const body = chooseBody.safeParse(request.body);
      if (!pending.success || !body.success || !pending.data.pendingLogin.userIds.includes(body.data.membership)) {
        const language = languageOf(request, details.params.ui_locales);
        return sendHtml(reply, renderSignInPage({ language, action: `/interaction/${details.uid}/login` }), 400);
      }
      return finishLogin(request, reply, body.data.membership);
    });
  });
}
