/**
 * Signs in through the real flow, as a browser would: /auth/start → identity provider →
 * sign-in form → callback. Returns the cookie jar (a Cookie header value) of the session.
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>();
  /** The address of the last answer `follow` reached. */
  lastUrl = '';

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** A GET that keeps cookies and follows redirects on the same origin; returns the last answer. */
  async follow(url: string, init: RequestInit = {}, maxHops = 10): Promise<Response> {
    let next = url;
    let request = init;
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await fetch(next, {
        ...request,
        redirect: 'manual',
        headers: { ...request.headers, cookie: this.header() },
      });
      this.store(response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        this.lastUrl = next;
        return response;
      }
      next = new URL(location, next).href;
      request = {};
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  redirectPath = '/',
): Promise<{ jar: CookieJar; landing: Response }> {
  const jar = new CookieJar();
  const formPage = await jar.follow(
    `${baseUrl}/auth/start?post_auth_redirect_path=${encodeURIComponent(redirectPath)}`,
  );
  const html = await formPage.text();
  const action = /action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form at ${formPage.url}: ${formPage.status}`);
  const landing = await jar.follow(new URL(action, baseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  return { jar, landing };
}

/** On the choice of organisation after sign-in, picks the one named and follows the flow to the end. */
export async function chooseOrganization(
  jar: CookieJar,
  baseUrl: string,
  page: string,
  orgName: string,
): Promise<Response> {
  const action = /action="([^"]+)"/.exec(page)?.[1];
  const membership = new RegExp(`value="([^"]+)"[^>]*> ${orgName}<`).exec(page)?.[1];
  if (!action || !membership) throw new Error(`no choice of ${orgName} on the page`);
  return jar.follow(new URL(action, baseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ membership }).toString(),
  });
}
