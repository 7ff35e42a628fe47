import { silentSignIn } from '../auth/silent-sign-in.ts';
import { type EarlyCalls, earlyCalls } from './early-calls.ts';
import { getRequestInit, JSON_MEDIA_TYPE } from './request-init.ts';

/** The path behind which the accounts API is proxied: its 401 and 403 mean "renew the session". */
export const ACCOUNTS_PROXY_PREFIX = '/apis/accounts/';

/** A non-OK answer. `body` is the parsed JSON answer, or null when there was none. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: unknown,
  ) {
    super(`Request to ${url} failed with status ${status}`);
  }
}

/** A 409 answer: the resource changed or already exists. */
export class ConflictError extends HttpError {
  override name = 'ConflictError';
}

export interface HttpClientOptions {
  /** Renews the session; resolves false when it could not. Defaults to the silent sign-in. */
  reauthenticate?: () => Promise<boolean>;
  fetch?: typeof fetch;
  /** Answers started before the page's code loaded, adopted once each (src/early-calls.ts). */
  earlyCalls?: EarlyCalls;
}

export interface RequestOptions {
  accept?: string;
  signal?: AbortSignal | undefined;
}

export interface HttpClient {
  /** GETs a JSON answer: null for 204 or a body that is not JSON; throws HttpError otherwise (SPEC.md §8). */
  get<T>(path: string, options?: RequestOptions): Promise<T | null>;
  /** Sends a request under the same renewal rule and answers the response unread, e.g. to read it as a stream. */
  send(path: string, init: RequestInit): Promise<Response>;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const reauthenticate = options.reauthenticate ?? (() => silentSignIn());
  const doFetch = (input: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(input, init);
  const early = options.earlyCalls ?? earlyCalls;

  async function send(path: string, init: RequestInit, started?: Promise<Response>): Promise<Response> {
    const response = await (started ?? doFetch(path, init));
    if ((response.status === 401 || response.status === 403) && isAccountsPath(path)) {
      // Renew the session once, then retry once; a second refusal is an ordinary HTTP error.
      if (await reauthenticate()) return doFetch(path, init);
    }
    return response;
  }

  async function get<T>(path: string, requestOptions: RequestOptions = {}): Promise<T | null> {
    const accept = requestOptions.accept ?? JSON_MEDIA_TYPE;
    // The page's first calls may have been started before its code loaded (src/early-calls.ts).
    const response = await send(path, getRequestInit(accept, requestOptions.signal), early.take(path, accept));
    if (response.status === 204) return null;
    const body = await readJson(response);
    if (response.status === 409) throw new ConflictError(response.status, path, body);
    if (!response.ok) throw new HttpError(response.status, path, body);
    return body as T | null;
  }

  return { get, send: (path, init) => send(path, init) };
}

function isAccountsPath(path: string): boolean {
  const pathname = path.startsWith('/') ? path : new URL(path, window.location.origin).pathname;
  return pathname.startsWith(ACCOUNTS_PROXY_PREFIX);
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** The page's one client. */
export const httpClient = createHttpClient();
