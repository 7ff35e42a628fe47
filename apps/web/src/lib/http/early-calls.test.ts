// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEarlyCalls } from './early-calls.ts';
import { createHttpClient } from './http-client.ts';

const ACCOUNTS = '/apis/accounts/api/v3/orgs/o1/users';
const JSON_API = 'application/vnd.api+json';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('early calls', () => {
  it('hand an answer over once, and only for the same path and Accept header', async () => {
    const early = createEarlyCalls();
    const answer = Promise.resolve(json(200, { ok: 1 }));
    early.offer('/a', 'application/json', answer);
    expect(early.take('/a', JSON_API)).toBeUndefined();
    expect(early.take('/b', 'application/json')).toBeUndefined();
    expect(early.take('/a', 'application/json')).toBe(answer);
    expect(early.take('/a', 'application/json')).toBeUndefined();
  });

  it('start a GET with the cookies and the Accept header the page sends', () => {
    const fetch = vi.fn(async () => json(200, {}));
    vi.stubGlobal('fetch', fetch);
    const early = createEarlyCalls();
    early.start('/a', JSON_API);
    expect(fetch).toHaveBeenCalledWith('/a', { method: 'GET', credentials: 'include', headers: { Accept: JSON_API } });
    expect(early.take('/a', JSON_API)).toBeDefined();
  });

  it('once closed, drop what was not taken and start nothing more', () => {
    const fetch = vi.fn(async () => json(200, {}));
    vi.stubGlobal('fetch', fetch);
    const early = createEarlyCalls();
    early.offer('/a', 'application/json', Promise.resolve(json(200, {})));
    early.close();
    early.offer('/b', 'application/json', Promise.resolve(json(200, {})));
    early.start('/c', 'application/json');
    expect(early.take('/a', 'application/json')).toBeUndefined();
    expect(early.take('/b', 'application/json')).toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('do not report a failed call that nobody took as an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      createEarlyCalls().offer('/a', 'application/json', Promise.reject(new TypeError('Failed to fetch')));
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('the HTTP client with early calls', () => {
  it('answers from an early call instead of calling again, then calls as usual', async () => {
    const early = createEarlyCalls();
    early.offer(ACCOUNTS, JSON_API, Promise.resolve(json(200, { data: ['early'] })));
    const fetch = vi.fn(async () => json(200, { data: ['fetched'] }));
    const client = createHttpClient({ fetch, reauthenticate: vi.fn(), earlyCalls: early });
    await expect(client.get(ACCOUNTS, { accept: JSON_API })).resolves.toEqual({ data: ['early'] });
    expect(fetch).not.toHaveBeenCalled();
    await expect(client.get(ACCOUNTS, { accept: JSON_API })).resolves.toEqual({ data: ['fetched'] });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('takes the usual renewal path when the early answer is refused (SPEC.md §8)', async () => {
    const early = createEarlyCalls();
    early.offer(ACCOUNTS, JSON_API, Promise.resolve(json(401, {})));
    const fetch = vi.fn(async () => json(200, { data: [] }));
    const reauthenticate = vi.fn(async () => true);
    const client = createHttpClient({ fetch, reauthenticate, earlyCalls: early });
    await expect(client.get(ACCOUNTS, { accept: JSON_API })).resolves.toEqual({ data: [] });
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
