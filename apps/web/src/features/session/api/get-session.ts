import { queryOptions, useQuery } from '@tanstack/react-query';
import { type OAuthError, SESSION_PATH, type SessionClaims } from '@users-admin/contract';
import { silentSignIn } from '../../../lib/auth/silent-sign-in.ts';
import { type HttpClient, HttpError, httpClient } from '../../../lib/http/http-client.ts';

/** The session lookup answers these when there is no usable session (SPEC.md §4). */
export function needsSignIn(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  if (error.status === 401) return true;
  const body = error.body as Partial<OAuthError> | null;
  return (
    error.status === 400 && body?.error === 'invalid_request' && body.error_description === 'no access token provided'
  );
}

export interface GetSessionDependencies {
  client?: HttpClient;
  signIn?: () => Promise<boolean>;
  signal?: AbortSignal | undefined;
}

/** Looks the session up; without one, signs in silently and looks it up once more. */
export async function getSession({
  client = httpClient,
  signIn = () => silentSignIn(),
  signal,
}: GetSessionDependencies = {}): Promise<SessionClaims> {
  const lookup = async () => {
    const claims = await client.get<SessionClaims>(SESSION_PATH, { signal });
    if (!claims || typeof claims.org_id !== 'string') throw new Error('The session answer is not usable');
    return claims;
  };
  try {
    return await lookup();
  } catch (error) {
    if (!needsSignIn(error) || !(await signIn())) throw error;
    return lookup();
  }
}

export const sessionQueryKeys = { all: ['session'] as const };

export function getSessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKeys.all,
    queryFn: ({ signal }) => getSession({ signal }),
    // The session lives as long as the page; a refused call renews it through the HTTP client.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSession() {
  return useQuery(getSessionQueryOptions());
}
