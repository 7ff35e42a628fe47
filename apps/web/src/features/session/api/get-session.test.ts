// @vitest-environment node
import type { SessionClaims } from '@users-admin/contract';
import { describe, expect, it, vi } from 'vitest';
import { type HttpClient, HttpError } from '../../../lib/http/http-client.ts';
import { getSession, needsSignIn } from './get-session.ts';

const claims: SessionClaims = { sub: 's', org_id: 'o', locale: 'en', name: 'Ann', email: 'ann@acme.example' };
const noToken = new HttpError(400, '/apis/oidc/userinfo', {
  error: 'invalid_request',
  error_description: 'no access token provided',
});

function clientAnswering(...answers: Array<SessionClaims | Error>): HttpClient & { get: ReturnType<typeof vi.fn> } {
  const get = vi.fn();
  for (const answer of answers) {
    if (answer instanceof Error) get.mockRejectedValueOnce(answer);
    else get.mockResolvedValueOnce(answer);
  }
  return { get } as HttpClient & { get: ReturnType<typeof vi.fn> };
}

describe('session lookup (SPEC.md §4, §7)', () => {
  it('answers the claims, asking with credentials for JSON', async () => {
    const client = clientAnswering(claims);
    await expect(getSession({ client, signIn: vi.fn() })).resolves.toEqual(claims);
    expect(client.get).toHaveBeenCalledWith('/apis/oidc/userinfo', { signal: undefined });
  });

  it.each([
    ['400 no access token', noToken],
    ['401', new HttpError(401, '/apis/oidc/userinfo', { error: 'invalid_token' })],
  ])('signs in silently and looks up again after %s', async (_name, error) => {
    const client = clientAnswering(error, claims);
    const signIn = vi.fn(async () => true);
    await expect(getSession({ client, signIn })).resolves.toEqual(claims);
    expect(signIn).toHaveBeenCalledTimes(1);
    expect(client.get).toHaveBeenCalledTimes(2);
  });

  it('does not sign in for other failures', async () => {
    const other400 = new HttpError(400, '/apis/oidc/userinfo', { error: 'invalid_request', error_description: 'x' });
    const signIn = vi.fn(async () => true);
    await expect(getSession({ client: clientAnswering(other400), signIn })).rejects.toBe(other400);
    await expect(getSession({ client: clientAnswering(new HttpError(500, '/x', null)), signIn })).rejects.toMatchObject(
      { status: 500 },
    );
    expect(signIn).not.toHaveBeenCalled();
    expect(needsSignIn(new TypeError('network'))).toBe(false);
  });

  it('fails with the first error when the silent sign-in cannot renew the session', async () => {
    const client = clientAnswering(noToken);
    await expect(getSession({ client, signIn: async () => false })).rejects.toBe(noToken);
    expect(client.get).toHaveBeenCalledTimes(1);
  });
});
