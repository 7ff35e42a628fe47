import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REFERENCE_SCRIPTS } from '../config.ts';

export const PAGE_VIEWS_PATH = '/apis/monitoring/page-views';

const scriptsDir = path.resolve(import.meta.dirname, '../micro-frontends');

/** A page view as the monitoring script sends it. */
const pageViewSchema = z.object({
  path: z.string().startsWith('/').max(2048),
  title: z.string().max(512).optional(),
  viewedAt: z.iso.datetime(),
});

function script(file: string) {
  const source = readFileSync(path.join(scriptsDir, file), 'utf8');
  return { source, etag: `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"` };
}

/**
 * The reference micro-frontends the page loads at start-up by default (SPEC.md §7): the global
 * navigator and the product-usage monitoring script, plus the endpoint that receives page views.
 */
export async function microFrontendRoutes(app: FastifyInstance) {
  for (const [url, file] of [
    [REFERENCE_SCRIPTS.globalNavigator, 'global-navigator.js'],
    [REFERENCE_SCRIPTS.monitoring, 'monitoring.js'],
  ] as const) {
    const { source, etag } = script(file);
    app.get(url, async (request, reply) => {
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return source;
    });
  }

  // A beacon sends its JSON as text/plain. Page views are logged, not stored.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.withTypeProvider<ZodTypeProvider>().post(
    PAGE_VIEWS_PATH,
    {
      bodyLimit: 4096,
      schema: {
        summary: 'Record a page view',
        description: 'Where the reference monitoring script reports each page view. Logged, not stored.',
        tags: ['monitoring'],
        body: pageViewSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      request.log.info({ pageView: request.body }, 'page view');
      return reply.code(204).send(null);
    },
  );
}
