import type { ApiError } from '@users-admin/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiProblem } from '../lib/api-errors.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';

const CLIENT_ERROR_CODES: Record<number, string> = {
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Turns every error into a JSON:API error document: validation errors name the offending
 * parameter and say what is accepted; 5xx answer a generic message, the detail goes to the log.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiProblem) return error.send(reply);

    if (isDatabaseUnavailable(error)) {
      // Not a fault of this request: say so, and the client may retry; no stack, no SQL.
      request.log.warn({ database: { code: error.code, message: error.message } }, 'database unavailable');
      return ApiProblem.databaseUnavailable().send(reply.header('retry-after', '5'));
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: ApiError[] = error.validation.flatMap((issue) => {
        const keys = (issue.params as { keys?: string[] }).keys;
        const named = issue.instancePath.replace(/^\//, '').split('/')[0] ?? '';
        const parameters = issue.keyword === 'unrecognized_keys' && keys ? keys : [named];
        return parameters.map((parameter) => ({
          status: '400',
          code: 'invalid_parameter',
          title: 'Invalid parameter',
          detail:
            issue.keyword === 'unrecognized_keys' ? `${parameter} is not a parameter of this endpoint` : issue.message,
          source: { parameter },
        }));
      });
      return new ApiProblem(400, errors).send(reply);
    }

    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return ApiProblem.of(statusCode, { code: 'server_error', title: 'Something went wrong on our side' }).send(reply);
    }
    // A client error raised by Fastify itself (bad JSON, body too large, unsupported media type).
    // Fastify's own error codes (FST_ERR_…) name internals; the status and the message say enough.
    const code = CLIENT_ERROR_CODES[statusCode] ?? 'bad_request';
    return ApiProblem.of(statusCode, { code, title: 'Bad request', detail: error.message }).send(reply);
  });

  app.setNotFoundHandler((request, reply) =>
    ApiProblem.notFound(`No route for ${request.method} ${request.url.split('?')[0]}`).send(reply),
  );
});

/** A request Fastify refuses before routing (a malformed URL, a path parameter too long). */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply) {
  const statusCode = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const problem = { code: 'bad_request', title: 'Bad request', detail: 'The address is not valid.' };
  return ApiProblem.of(statusCode, problem).send(reply);
}
