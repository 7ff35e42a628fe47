// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { ConflictError, createHttpClient, HttpError } from './http-client.ts';

const ACCOUNTS = '/apis/accounts/api/v3/orgs/o1/users';

function respond(...responses: Array<() => Response>) {
  const fetch = vi.fn<typeof globalThis.fetch>();
  for (const response of responses) fetch.mockImplementationOnce(async () => response());
  return fetch;
}
const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('HTTP client (SPEC.md §8)', () => {
  it('sends credentials and the Accept header, and answers the parsed JSON', async () => {
    const fetch = respond(json(200, { ok: 1 }));
    const client = createHttpClient({ fetch, reauthenticate: vi.fn() });
    await expect(client.get('/x', { accept: 'application/vnd.api+json' })).resolves.toEqual({ ok: 1 });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ Accept: 'application/vnd.api+json' });
  });

  it.each([401, 403])('renews the session once on %i from the accounts proxy, then retries once', async (status) => {
    const fetch = respond(json(status, {}), json(200, { data: [] }));
    const reauthenticate = vi.fn(async () => true);
    const client = createHttpClient({ fetch, reauthenticate });
    await expect(client.get(ACCOUNTS)).resolves.toEqual({ data: [] });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('answers an HttpError when the retry is refused again', async () => {
    const fetch = respond(json(403, {}), json(403, { errors: [{ code: 'forbidden' }] }));
    const reauthenticate = vi.fn(async () => true);
    const error = await createHttpClient({ fetch, reauthenticate })
      .get(ACCOUNTS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 403, body: { errors: [{ code: 'forbidden' }] } });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
  });

  it('does not retry when the session could not be renewed', async () => {
    const fetch = respond(json(401, {}));
    const client = createHttpClient({ fetch, reauthenticate: async () => false });
    await expect(client.get(ACCOUNTS)).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('does not renew the session for a 401 outside the accounts proxy', async () => {
    const reauthenticate = vi.fn(async () => true);
    const client = createHttpClient({ fetch: respond(json(401, { error: 'invalid_token' })), reauthenticate });
    await expect(client.get('/apis/oidc/userinfo')).rejects.toMatchObject({ status: 401 });
    expect(reauthenticate).not.toHaveBeenCalled();
  });

  it('answers a ConflictError on 409', async () => {
    const client = createHttpClient({ fetch: respond(json(409, { errors: [] })), reauthenticate: vi.fn() });
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toBeInstanceOf(HttpError);
  });

  it('answers an HttpError on any other failure, even without a JSON body', async () => {
    const client = createHttpClient({
      fetch: respond(() => new Response('<h1>Bad gateway</h1>', { status: 502 })),
      reauthenticate: vi.fn(),
    });
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 502, body: null });
  });

  it('answers null for 204 and for a body that is not JSON', async () => {
    const client = createHttpClient({
      fetch: respond(
        () => new Response(null, { status: 204 }),
        () => new Response('not json', { status: 200 }),
      ),
      reauthenticate: vi.fn(),
    });
    await expect(client.get('/x')).resolves.toBeNull();
    await expect(client.get('/x')).resolves.toBeNull();
  });
});
