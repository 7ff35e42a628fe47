/**
 * SQLSTATE classes and socket errors that mean "the database cannot answer now" rather than "this
 * request is wrong": connection exceptions (08), operator intervention (57: shutdown, statement
 * timeout), insufficient resources (53: too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08|57|53)/;
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  'ENOTFOUND',
]);
// node-postgres reports these without a code.
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

/** Whether an error means the database is unreachable or refusing work for now (answered 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE.test(code)) return true;
  }
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  if (UNAVAILABLE_MESSAGES.some((message) => error.message.includes(message))) return true;
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}
