import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** How long the readiness probe waits for `select 1` before it answers that the database is unreachable. */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * Probes for orchestrators: `/healthz` says the process serves HTTP (it never touches the
 * database, so a database outage does not get the process restarted); `/readyz` says the database
 * answers. Probes are frequent, so their requests are logged only when they fail.
 */
export async function healthRoutes(app: FastifyInstance, options: { db: Db }) {
  const routeOptions = { logLevel: 'warn' as const };

  app.get('/healthz', routeOptions, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', routeOptions, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
    });
    try {
      await Promise.race([sql`select 1`.execute(options.db), timeout]);
      return { status: 'ok', database: 'ok' };
    } catch (error) {
      request.log.warn({ database: { message: (error as Error).message } }, 'readiness: database unreachable');
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });
}
