// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { ConflictError, createHttpClient, HttpError } from './http-client.ts';
import { apiRefusal, requestJson } from './json-request.ts';

const USER = '/apis/accounts/api/v3/orgs/o1/users/u1';
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers });

describe('a JSON request', () => {
  it('sends its body as JSON of the media type it accepts, with its headers, and keeps the answer’s headers', async () => {
    const fetch = vi.fn(async () => answer(200, { data: 1 }, { etag: '"8"' }));
    const client = createHttpClient({ fetch, reauthenticate: vi.fn() });
    const sent = await requestJson(USER, {
      method: 'PATCH',
      accept: 'application/vnd.api+json',
      body: { data: {} },
      headers: { 'If-Match': '"7"' },
      client,
    });
    expect(sent).toMatchObject({ status: 200, body: { data: 1 } });
    expect(sent.headers.get('etag')).toBe('"8"');
    expect(fetch).toHaveBeenCalledWith(USER, {
      method: 'PATCH',
      credentials: 'include',
      headers: { Accept: 'application/vnd.api+json', 'Content-Type': 'application/vnd.api+json', 'If-Match': '"7"' },
      body: '{"data":{}}',
    });
  });

  it('answers null for 204', async () => {
    const client = createHttpClient({ fetch: async () => answer(204, null), reauthenticate: vi.fn() });
    await expect(requestJson(USER, { method: 'DELETE', accept: 'application/json', client })).resolves.toMatchObject({
      status: 204,
      body: null,
    });
  });

  it('renews a refused session once and retries, as the GETs do (SPEC.md §8)', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    fetch.mockResolvedValueOnce(answer(401, {})).mockResolvedValueOnce(answer(200, { ok: true }));
    const reauthenticate = vi.fn(async () => true);
    const client = createHttpClient({ fetch, reauthenticate });
    await expect(requestJson(USER, { method: 'POST', accept: 'application/json', client })).resolves.toMatchObject({
      body: { ok: true },
    });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
  });

  it.each([
    [409, ConflictError],
    [412, HttpError],
    [428, HttpError],
    [429, HttpError],
  ])('throws on %i, with what the refusal says', async (status, type) => {
    const body = { errors: [{ status: String(status), code: 'last_system_admin', title: 'x', detail: 'Keep one.' }] };
    const client = createHttpClient({ fetch: async () => answer(status, body), reauthenticate: vi.fn() });
    const error = await requestJson(USER, { method: 'DELETE', accept: 'application/json', client }).catch((e) => e);
    expect(error).toBeInstanceOf(type);
    expect(apiRefusal(error)).toEqual({ status, code: 'last_system_admin', detail: 'Keep one.' });
  });

  it('reads nothing from a failure that is not an HTTP answer', () => {
    expect(apiRefusal(new TypeError('Failed to fetch'))).toEqual({ status: 0 });
  });
});
