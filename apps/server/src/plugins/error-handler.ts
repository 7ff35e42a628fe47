import type { ApiError } from '@users-admin/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiProblem, sendErrorDocument } from '../lib/api-errors.ts';
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
    if (error instanceof ApiProblem) return sendErrorDocument(reply, error.statusCode, error.errors);

    if (isDatabaseUnavailable(error)) {
      // Not a fault of this request: say so, and the client may retry; no stack, no SQL.
      request.log.warn({ database: { code: error.code, message: error.message } }, 'database unavailable');
      const problem = ApiProblem.databaseUnavailable();
      reply.header('retry-after', '5');
      return sendErrorDocument(reply, problem.statusCode, problem.errors);
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
      return sendErrorDocument(reply, 400, errors);
    }

    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendErrorDocument(reply, statusCode, [
        { status: String(statusCode), code: 'server_error', title: 'Something went wrong on our side' },
      ]);
    }
    // A client error raised by Fastify itself (bad JSON, body too large, unsupported media type).
    return sendErrorDocument(reply, statusCode, [
      // Fastify's own error codes (FST_ERR_…) name internals; the status and the message say enough.
      {
        status: String(statusCode),
        code: CLIENT_ERROR_CODES[statusCode] ?? 'bad_request',
        title: 'Bad request',
        detail: error.message,
      },
    ]);
  });

  app.setNotFoundHandler((request, reply) =>
    sendErrorDocument(reply, 404, [
      {
        status: '404',
        code: 'not_found',
        title: 'Not found',
        detail: `No route for ${request.method} ${request.url.split('?')[0]}`,
      },
    ]),
  );
});

/** A request Fastify refuses before routing (a malformed URL, a path parameter too long). */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply) {
  const statusCode = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  return sendErrorDocument(reply, statusCode, [
    { status: String(statusCode), code: 'bad_request', title: 'Bad request', detail: 'The address is not valid.' },
  ]);
}
