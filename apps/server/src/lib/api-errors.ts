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

  /** A document of one error, whose `status` is the answer's. */
  static of(statusCode: number, error: Omit<ApiError, 'status'>) {
    return new ApiProblem(statusCode, [{ status: String(statusCode), ...error }]);
  }

  static unauthorized() {
    return ApiProblem.of(401, { code: 'unauthorized', title: 'Not signed in', detail: 'Sign in to use this API.' });
  }

  /** The same answer whether or not the organisation exists, so that it reveals nothing. */
  static forbidden() {
    const detail = 'You do not have access to the users of this organisation.';
    return ApiProblem.of(403, { code: 'forbidden', title: 'Forbidden', detail });
  }

  /** The database cannot answer now: the client may try again shortly (SPEC.md §8: an HTTP error). */
  static databaseUnavailable() {
    const detail = 'The database cannot be reached at the moment. Please try again shortly.';
    return ApiProblem.of(503, { code: 'database_unavailable', title: 'Service unavailable', detail });
  }

  static notFound(detail: string) {
    return ApiProblem.of(404, { code: 'not_found', title: 'Not found', detail });
  }

  send(reply: FastifyReply) {
    return reply
      .code(this.statusCode)
      .type(JSON_API_MEDIA_TYPE)
      .send({ errors: this.errors } satisfies ErrorDocument);
  }
}
