import type { CookieJar } from './sign-in.ts';

/**
 * The sign-in flow one step at a time, for tests that tamper with a step: follows redirects with
 * the jar until the next hop would be the server's /auth/callback, and returns that address.
 */
export async function signInUntilCallback(
  jar: CookieJar,
  baseUrl: string,
  credentials: { email: string; password: string },
  startQuery = '',
  headers: Record<string, string> = {},
): Promise<URL> {
  const formPage = await jar.follow(`${baseUrl}/auth/start${startQuery}`, { headers });
  const action = /action="([^"]+)"/.exec(await formPage.text())?.[1];
  if (!action) throw new Error(`no sign-in form: ${formPage.status}`);
  const posted = await fetch(new URL(action, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(credentials).toString(),
  });
  return followUntilCallback(jar, posted, headers);
}

/** Follows the redirects of `response` with the jar until the next hop would be /auth/callback. */
export async function followUntilCallback(
  jar: CookieJar,
  first: Response,
  headers: Record<string, string> = {},
): Promise<URL> {
  let response = first;
  for (let hop = 0; hop < 10; hop++) {
    jar.store(response);
    const location = response.headers.get('location');
    if (!location) throw new Error(`the flow stopped at ${response.status} before the callback`);
    const next = new URL(location, response.url);
    if (next.pathname === '/auth/callback') return next;
    response = await fetch(next, { redirect: 'manual', headers: { ...headers, cookie: jar.header() } });
  }
  throw new Error('too many redirects before the callback');
}

/** The Set-Cookie header that sets `name`, if the answer has one. */
export function setCookieOf(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((header) => header.startsWith(`${name}=`));
}
