import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming request id is kept only when it is a short token: nothing to inject into logs. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The request's id: the caller's `X-Request-Id` when it is a sane token (a proxy's), else a new UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Query parameters whose values are credentials or personal data: OAuth codes and state, tokens and
 * hints, e-mail addresses in login hints, and search text (names, e-mail addresses): the page's
 * `search` and the API's `filter[query]`.
 */
const REDACTED_PARAMETERS = new Set([
  'code',
  'state',
  'nonce',
  'id_token_hint',
  'id_token',
  'access_token',
  'refresh_token',
  'token',
  'code_verifier',
  'client_secret',
  'login_hint',
  'password',
  'session_state',
  'search',
  'filter[query]',
]);

/** The URL as logged: the path, and the query with the values of sensitive parameters replaced. */
export function redactUrl(url: string): string {
  const index = url.indexOf('?');
  if (index < 0) return url;
  const query = url
    .slice(index + 1)
    .split('&')
    .map((pair) => {
      // Decoded as the server reads it; a malformed escape stays as written, and matches no name.
      const name = new URLSearchParams(pair).keys().next().value ?? '';
      return REDACTED_PARAMETERS.has(name.toLowerCase()) ? `${pair.split('=', 1)[0]}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, index)}?${query}`;
}

/**
 * Structured JSON logs (pino): one object a line, the request id as `reqId` on every line of a
 * request, and neither cookies, authorization headers nor sign-in codes in any of them.
 */
export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["set-cookie"]',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        'headers["set-cookie"]',
        'password',
        '*.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort ?? 0,
        };
      },
    },
  };
}
