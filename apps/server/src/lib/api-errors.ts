import { type ApiError, type ErrorDocument, JSON_API_MEDIA_TYPE } from '@users-admin/contract';
import type { FastifyReply } from 'fastify';

/** An error the API answers as a JSON:API error document with the given status. */
export class ApiProblem extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: ApiError[],
  ) {
    super(errors.map((error) => error.detail ?? error.title).join('; '));
  }

  static unauthorized(detail = 'Sign in to use this API.') {
    return new ApiProblem(401, [{ status: '401', code: 'unauthorized', title: 'Not signed in', detail }]);
  }

  /** The same answer whether or not the organisation exists, so that it reveals nothing. */
  static forbidden(detail = 'You do not have access to the users of this organisation.') {
    return new ApiProblem(403, [{ status: '403', code: 'forbidden', title: 'Forbidden', detail }]);
  }

  /** The database cannot answer now: the client may try again shortly (SPEC.md §8: an HTTP error). */
  static databaseUnavailable() {
    return new ApiProblem(503, [
      {
        status: '503',
        code: 'database_unavailable',
        title: 'Service unavailable',
        detail: 'The database cannot be reached at the moment. Please try again shortly.',
      },
    ]);
  }

  static notFound(detail = 'No such resource.') {
    return new ApiProblem(404, [{ status: '404', code: 'not_found', title: 'Not found', detail }]);
  }
}

export function sendErrorDocument(reply: FastifyReply, statusCode: number, errors: ApiError[]) {
  const document: ErrorDocument = { errors };
  return reply.code(statusCode).type(JSON_API_MEDIA_TYPE).send(document);
}
