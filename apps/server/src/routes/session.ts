import { oauthErrorSchema, SESSION_PATH, sessionClaimsSchema } from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionStore } from '../auth/sessions.ts';

/**
 * The session lookup (SPEC.md §7). Without a session cookie: 400 invalid_request, "no access
 * token provided"; with an expired or unknown one: 401 invalid_token. Both start a silent sign-in.
 */
export async function sessionRoutes(app: FastifyInstance, options: { sessions: SessionStore }) {
  const schema = {
    summary: 'The signed-in session',
    description: 'The claims of the session: the organisation signed into (org_id) and the language (locale).',
    tags: ['session'],
    response: { 200: sessionClaimsSchema, 400: oauthErrorSchema, 401: oauthErrorSchema },
  };
  app.withTypeProvider<ZodTypeProvider>().get(SESSION_PATH, { schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const lookup = await options.sessions.lookup(request);
    if (lookup.state === 'valid') return lookup.session.claims;
    if (lookup.state === 'none') {
      return reply.code(400).send({ error: 'invalid_request', error_description: 'no access token provided' });
    }
    reply.header('www-authenticate', 'Bearer error="invalid_token"');
    return reply
      .code(401)
      .send({ error: 'invalid_token', error_description: 'the access token is expired or invalid' });
  });
}
