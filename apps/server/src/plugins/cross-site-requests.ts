import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../lib/api-errors.ts';

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Whether a call comes from the page itself. Its origin is PUBLIC_URL's, or the request's own
 * (the Vite dev server proxies with the browser's Host): a browser sets Origin and Host itself,
 * and a site that points its own name at us gets no session cookie. Without Origin, only a
 * browser's Sec-Fetch-Site saying another site refuses; a client that is not a browser sends neither.
 */
function fromOwnOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) {
    const site = request.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin' || site === 'none';
  }
  return origin === publicOrigin || origin === `${request.protocol}://${request.host}`;
}

/**
 * The `onRequest` hook that refuses cross-site request forgery: a state-changing call under
 * `/apis/` from another origin answers 403 before anything else is read.
 */
export function refuseCrossSiteRequests(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request: FastifyRequest) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/apis/')) return;
    if (fromOwnOrigin(request, publicOrigin)) return;
    const detail = 'This call changes data and is accepted only from the Users page itself, not from another site.';
    throw ApiProblem.of(403, { code: 'cross_site_request', title: 'Cross-site request refused', detail });
  };
}
