import { errorDocumentSchema } from '@users-admin/contract';
import type { FastifyRequest } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { ApiProblem } from '../lib/api-errors.ts';

/** The answers of every admin API to who may not ask: not signed in, not its System Admin. */
export const adminErrors = { 401: errorDocumentSchema, 403: errorDocumentSchema };

/**
 * The `onRequest` hook of an organisation's admin APIs: who asks comes before what is asked, so no
 * session answers 401 whatever the parameters. Reads the session and its subject's role.
 */
export function requireSession(sessions: SessionStore) {
  return async (request: FastifyRequest) => {
    const lookup = await sessions.lookup(request, { withRole: true });
    if (lookup.state !== 'valid') throw ApiProblem.unauthorized();
    request.session = lookup.session;
  };
}

/**
 * Throws 403 unless the session is an active System Admin of the organisation: the same answer
 * whether or not the organisation, or what is asked of it, exists.
 */
export function assertAdminOf(request: FastifyRequest, orgId: string): string {
  const session = request.session;
  // The role was read for the session's own organisation: any other organisation is forbidden.
  if (!session || session.claims.org_id !== orgId || session.isSystemAdmin !== true) throw ApiProblem.forbidden();
  return session.claims.sub;
}
