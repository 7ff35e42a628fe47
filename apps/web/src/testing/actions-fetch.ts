import { DEFAULT_USER_COLUMNS } from '@users-admin/contract';
import { vi } from 'vitest';
import { demoUser, usersDocument } from './users-fixtures.ts';

export const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export interface Call {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer for a call the page makes; undefined: the usual answer (lists, users, columns). */
export type Answer = (call: Call) => Response | undefined;

export const jsonApi = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/vnd.api+json', ...headers },
  });

export const refusal = (status: number, code: string, detail?: string) =>
  jsonApi(status, { errors: [{ status: String(status), code, title: 'Refused', ...(detail ? { detail } : {}) }] });

/**
 * Stubs fetch for the Users page and its actions: a list of `total` demo users, each user with an
 * ETag, the chosen columns; `answer` answers the calls a test is about. Every call is recorded.
 */
export function stubActionsFetch(total: number, answer: Answer) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const call = { method, url, headers: (init.headers ?? {}) as Record<string, string>, body };
      calls.push(call);
      const answered = answer(call);
      if (answered) return answered;
      if (url.pathname.endsWith('/preferences')) {
        return jsonApi(200, {
          data: { type: 'preferences', attributes: { users_columns: [...DEFAULT_USER_COLUMNS] } },
        });
      }
      const one = /\/users\/([^/]+)$/.exec(url.pathname)?.[1];
      if (one) return jsonApi(200, { data: demoUser(Number(one.slice(1))) }, { etag: '"7"' });
      return jsonApi(200, usersDocument(url, total));
    }),
  );
  return calls;
}
