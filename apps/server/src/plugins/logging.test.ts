import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { redactUrl, requestIdFor } from './logging.ts';

const withHeader = (value: string | undefined) =>
  ({ headers: { 'x-request-id': value } }) as unknown as IncomingMessage;

describe('request ids', () => {
  it('keeps a short token from a proxy', () => {
    expect(requestIdFor(withHeader('abc-123_x.y:z'))).toBe('abc-123_x.y:z');
  });

  it.each([['a'.repeat(65)], ['two words'], ['{"json":1}'], ['line\nbreak'], [''], [undefined]])(
    'replaces %j with a new UUID',
    (value) => {
      expect(requestIdFor(withHeader(value))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    },
  );
});

describe('logged URLs', () => {
  it('hide the values of codes, state, tokens and search text, and keep the rest', () => {
    expect(redactUrl('/auth/callback?code=abc&state=xyz&iss=http%3A%2F%2Fh')).toBe(
      '/auth/callback?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Fh',
    );
    expect(redactUrl('/apis/x/users?filter%5Bquery%5D=ann%40acme&sort=name&page%5Bnumber%5D=2')).toBe(
      '/apis/x/users?filter%5Bquery%5D=[redacted]&sort=name&page%5Bnumber%5D=2',
    );
    expect(redactUrl('/idp/session/end?id_token_hint=eyJ&post_logout_redirect_uri=%2F')).toBe(
      '/idp/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=%2F',
    );
    expect(redactUrl('/idp/auth?Code=1&LOGIN_HINT=a%40b&nonce')).toBe(
      '/idp/auth?Code=[redacted]&LOGIN_HINT=[redacted]&nonce=[redacted]',
    );
  });

  it('leave a URL without a query, or with a malformed escape, readable', () => {
    expect(redactUrl('/apis/oidc/userinfo')).toBe('/apis/oidc/userinfo');
    expect(redactUrl('/x?%E0%A4%A=1&code=2')).toBe('/x?%E0%A4%A=1&code=[redacted]');
  });
});
