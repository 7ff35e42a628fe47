import type { Session } from './auth/sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, set by the routes that require one. */
    session?: Session;
  }
}
