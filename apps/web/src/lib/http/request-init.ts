/** What the page's GET calls accept unless they say otherwise. */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * What the page's GET calls send: its cookies and the media type it accepts. Shared by the HTTP
 * client and the early calls (which must not load the client: it brings the silent sign-in).
 */
export function getRequestInit(accept: string, signal?: AbortSignal): RequestInit {
  return { method: 'GET', credentials: 'include', headers: { Accept: accept }, ...(signal ? { signal } : {}) };
}
