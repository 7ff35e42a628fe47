import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const OPENAPI_PATH = '/apis/openapi.json';

/**
 * Publishes the API as OpenAPI, generated from the very zod schemas that validate the requests
 * (SPEC.md §7), so the document and the checks cannot drift apart.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Users admin API',
        version: '1.0.0',
        description:
          "The accounts API of the Users page: the session lookup, the JSON:API users list and one user, the list's CSV export, the actions on users and their audit events, and the administrator's preferences.",
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
    // Only the API: the identity provider, the sign-in flow and the page are not part of it.
    hideUntagged: true,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
});
