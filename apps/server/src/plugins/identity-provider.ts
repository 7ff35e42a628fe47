import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { EMBEDDED_ISSUER_PATH } from '../auth/identity-provider.ts';
import { renderSignInPage, SIGN_IN_CSS } from '../auth/sign-in-page.ts';
import type { AccountsRepository } from '../repositories/accounts-repository.ts';

const signInBody = z.object({ email: z.string().max(320), password: z.string().max(1024) });

/**
 * Mounts the embedded OpenID provider at /oidc and serves its sign-in interaction.
 * The provider reads request bodies itself, so Fastify must leave them unread under /oidc.
 */
export async function identityProviderPlugin(
  app: FastifyInstance,
  options: { provider: Provider; accounts: AccountsRepository },
) {
  const { provider, accounts } = options;
  const callback = provider.callback();

  await app.register(async (oidc) => {
    oidc.removeAllContentTypeParsers();
    oidc.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url ?? '/';
      raw.url = (raw.url ?? '/').slice(EMBEDDED_ISSUER_PATH.length) || '/';
      await callback(raw, reply.raw);
    };
    oidc.all(EMBEDDED_ISSUER_PATH, forward);
    oidc.all(`${EMBEDDED_ISSUER_PATH}/*`, forward);
  });

  await app.register(async (interaction) => {
    await interaction.register(formbody);

    interaction.get('/interaction/sign-in.css', (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SIGN_IN_CSS),
    );

    interaction.get<{ Params: { uid: string } }>('/interaction/:uid', async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      reply.header('cache-control', 'no-store');
      return reply
        .type('text/html; charset=utf-8')
        .send(renderSignInPage({ action: `/interaction/${details.uid}/login` }));
    });

    interaction.post<{ Params: { uid: string } }>('/interaction/:uid/login', async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      const body = signInBody.safeParse(request.body);
      const email = body.success ? body.data.email : '';
      const memberships = body.success ? await accounts.authenticate(email, body.data.password) : undefined;
      const membership = memberships?.[0];
      if (!membership) {
        reply.header('cache-control', 'no-store');
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .send(
            renderSignInPage({
              action: `/interaction/${details.uid}/login`,
              email,
              error: 'The email or password is not right.',
            }),
          );
      }
      const redirectTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: membership.userId } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(redirectTo, 303);
    });
  });
}
