import { ConflictError, type HttpClient, HttpError, httpClient } from './http-client.ts';

/** An OK answer, its headers (an ETag, a Location) kept. */
export interface JsonAnswer<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON answer; null for 204 or a body that is not JSON (SPEC.md §8). */
  body: T | null;
}

export interface JsonRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  accept: string;
  /** Sent as JSON, with `accept` as its media type. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  client?: HttpClient;
}

/**
 * A call whose answer headers matter, or that changes something: under the client's renewal rule,
 * with the same errors as its GETs (HttpError, ConflictError on 409). Apart from the client so that
 * the first render does not carry it.
 */
export async function requestJson<T>(path: string, request: JsonRequest): Promise<JsonAnswer<T>> {
  const { method, accept, body, headers = {}, signal, client = httpClient } = request;
  const response = await client.send(path, {
    method,
    credentials: 'include',
    headers: { Accept: accept, ...(body === undefined ? {} : { 'Content-Type': accept }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  const parsed = response.status === 204 ? null : await readJson(response);
  if (response.status === 409) throw new ConflictError(response.status, path, parsed);
  if (!response.ok) throw new HttpError(response.status, path, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T | null };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

/** What a refusal says: its status and the first JSON:API error's code and words, when it has them. */
export interface ApiRefusal {
  /** 0 when no answer came (the network, an abort). */
  status: number;
  code?: string;
  detail?: string;
}

export function apiRefusal(error: unknown): ApiRefusal {
  if (!(error instanceof HttpError)) return { status: 0 };
  const first = (error.body as { errors?: { code?: unknown; detail?: unknown }[] } | null)?.errors?.[0];
  return {
    status: error.status,
    ...(typeof first?.code === 'string' ? { code: first.code } : {}),
    ...(typeof first?.detail === 'string' ? { detail: first.detail } : {}),
  };
}
