import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database unavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['server shutting down (57P01)', withCode('57P01')],
    ['statement timeout (57014)', withCode('57014')],
    ['too many connections (53300)', withCode('53300')],
    ['connection failure (08006)', withCode('08006')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['connection terminated', new Error('Connection terminated unexpectedly')],
    ['client query timeout', new Error('Query read timeout')],
    ['several addresses refused', new AggregateError([withCode('ECONNREFUSED')], '')],
    ['a wrapped cause', new Error('outer', { cause: withCode('ECONNRESET') })],
  ])('%s is unavailability', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error (42601)', withCode('42601')],
    ['a unique violation (23505)', withCode('23505')],
    ['a Fastify error code', withCode('FST_ERR_VALIDATION')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
