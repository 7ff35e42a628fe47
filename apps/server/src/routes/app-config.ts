import { APP_CONFIG_PATH, type AppConfig } from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';

/** The page's runtime configuration, read from the server's environment. */
export async function appConfigRoutes(app: FastifyInstance, options: { config: AppConfig }) {
  app.get(APP_CONFIG_PATH, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return options.config;
  });
}
