import { JSON_API_MEDIA_TYPE, SESSION_PATH } from '@users-admin/contract';
import { afterEach, expect, it, vi } from 'vitest';

const QUERY = '?page%5Bsize%5D=50&sort=-name&filter%5Bstatus%5D=pending';
const LIST = `/apis/accounts/api/v3/orgs/o1/users${QUERY}`;
const HINT = 'users-admin.organisation';
const PREFERENCES = '/apis/accounts/api/v3/orgs/o1/preferences';

/** Loads src/early-calls.ts afresh at `address`, with the session answering `claims` (and `status`). */
async function loadAt(address: string, claims: unknown, status = 200) {
  window.history.replaceState(null, '', address);
  const fetch = vi.fn(async (input: string) =>
    input === SESSION_PATH
      ? new Response(JSON.stringify(claims), { status, headers: { 'content-type': 'application/json' } })
      : new Response('{"data":[]}', { status: status === 200 ? 200 : status }),
  );
  vi.stubGlobal('fetch', fetch);
  vi.resetModules();
  await import('./early-calls.ts');
  const { earlyCalls } = await import('./lib/http/early-calls.ts');
  return { fetch, earlyCalls };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

it("starts the session lookup at once, and the address's list call before it hands the session over", async () => {
  const { fetch, earlyCalls } = await loadAt('/?status=pending&sort=-name&pageSize=50', { org_id: 'o1' });
  expect(fetch.mock.calls[0]?.[0]).toBe(SESSION_PATH);
  const session = earlyCalls.take(SESSION_PATH, 'application/json');
  expect(session).toBeDefined();
  await session;
  // By the time the session's answer is handed over, the list call is under way, and the chosen columns'.
  expect(fetch.mock.calls.map(([input]) => input)).toEqual([SESSION_PATH, LIST, PREFERENCES]);
  expect(earlyCalls.take(LIST, JSON_API_MEDIA_TYPE)).toBeDefined();
  expect(earlyCalls.take(PREFERENCES, JSON_API_MEDIA_TYPE)).toBeDefined();
  // The next start-up will not wait for the session to ask for this organisation's list.
  expect(localStorage.getItem(HINT)).toBe('o1');
});

it("starts the list call of the last session's organisation beside the session lookup, and no other when the session names it", async () => {
  localStorage.setItem(HINT, 'o1');
  const { fetch, earlyCalls } = await loadAt('/?status=pending&sort=-name&pageSize=50', { org_id: 'o1' });
  // All at once, before the session has answered.
  expect(fetch.mock.calls.map(([input]) => input)).toEqual([SESSION_PATH, LIST, PREFERENCES]);
  await earlyCalls.take(SESSION_PATH, 'application/json');
  expect(fetch).toHaveBeenCalledTimes(3);
  expect(earlyCalls.take(LIST, JSON_API_MEDIA_TYPE)).toBeDefined();
  expect(earlyCalls.take(PREFERENCES, JSON_API_MEDIA_TYPE)).toBeDefined();
});

it("asks for the session's organisation when the last session's was another, and remembers it", async () => {
  localStorage.setItem(HINT, 'o2');
  const { fetch, earlyCalls } = await loadAt('/?status=pending&sort=-name&pageSize=50', { org_id: 'o1' });
  await earlyCalls.take(SESSION_PATH, 'application/json');
  expect(fetch.mock.calls.map(([input]) => input)).toEqual([
    SESSION_PATH,
    `/apis/accounts/api/v3/orgs/o2/users${QUERY}`,
    '/apis/accounts/api/v3/orgs/o2/preferences',
    LIST,
    PREFERENCES,
  ]);
  // The page asks for o1's list only: it finds o1's call; o2's is dropped.
  expect(earlyCalls.take(LIST, JSON_API_MEDIA_TYPE)).toBeDefined();
  expect(earlyCalls.take(PREFERENCES, JSON_API_MEDIA_TYPE)).toBeDefined();
  expect(earlyCalls.take(`/apis/accounts/api/v3/orgs/o2/users${QUERY}`, JSON_API_MEDIA_TYPE)).toBeUndefined();
  expect(earlyCalls.take('/apis/accounts/api/v3/orgs/o2/preferences', JSON_API_MEDIA_TYPE)).toBeUndefined();
  expect(localStorage.getItem(HINT)).toBe('o1');
});

it("drops the last session's organisation's list call when the session lookup is refused", async () => {
  localStorage.setItem(HINT, 'o1');
  const { fetch, earlyCalls } = await loadAt('/?status=pending&sort=-name&pageSize=50', { error: 'x' }, 401);
  await earlyCalls.take(SESSION_PATH, 'application/json');
  expect(fetch).toHaveBeenCalledTimes(3);
  // Refused too: the page, once signed in again, makes the list call itself rather than adopting
  // this one, whose 401 would start a second silent sign-in.
  expect(earlyCalls.take(LIST, JSON_API_MEDIA_TYPE)).toBeUndefined();
  expect(earlyCalls.take(PREFERENCES, JSON_API_MEDIA_TYPE)).toBeUndefined();
  expect(localStorage.getItem(HINT)).toBe('o1');
});

it('starts at once without storage (switched off), as a first visit', async () => {
  vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
    throw new DOMException('denied', 'SecurityError');
  });
  vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
    throw new DOMException('denied', 'SecurityError');
  });
  const { fetch, earlyCalls } = await loadAt('/?status=pending&sort=-name&pageSize=50', { org_id: 'o1' });
  await earlyCalls.take(SESSION_PATH, 'application/json');
  expect(fetch.mock.calls.map(([input]) => input)).toEqual([SESSION_PATH, LIST, PREFERENCES]);
  expect(earlyCalls.take(LIST, JSON_API_MEDIA_TYPE)).toBeDefined();
});

it.each([
  ['no organisation', {}],
  ['an empty organisation', { org_id: '' }],
  ['an answer that is not an object', null],
])('makes no list call for a session with %s', async (_, claims) => {
  const { fetch, earlyCalls } = await loadAt('/', claims);
  await earlyCalls.take(SESSION_PATH, 'application/json');
  expect(fetch).toHaveBeenCalledTimes(1);
});

it('calls nothing on the other routes', async () => {
  const { fetch, earlyCalls } = await loadAt('/oidc/callback?status=success', { org_id: 'o1' });
  expect(fetch).not.toHaveBeenCalled();
  expect(earlyCalls.take(SESSION_PATH, 'application/json')).toBeUndefined();
});
