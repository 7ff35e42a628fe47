import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { OidcCallback } from './oidc-callback.tsx';

/**
 * The end of a silent sign-in tells the page that opened the frame, and only that page: the
 * message goes to our own origin, never to '*', so a page of another origin that framed this one
 * learns nothing. (The receiving side, which checks event.origin and event.source, is tested in
 * lib/auth/silent-sign-in.test.ts.)
 */
describe('the silent sign-in callback page', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', '/');
  });

  it('posts its outcome to the parent frame with our own origin as the target', () => {
    const postMessage = vi.fn();
    vi.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage } as unknown as Window);
    window.history.replaceState(null, '', '/oidc/callback?status=error&error=login_required');
    renderWithProviders(<OidcCallback />, { url: '/oidc/callback' });
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'oidc_callback', status: 'error', error: 'login_required' },
      window.location.origin,
    );
    expect(postMessage.mock.calls[0]?.[1]).not.toBe('*');
  });

  it('posts nothing when it is not in a frame', () => {
    const postMessage = vi.spyOn(window, 'postMessage');
    window.history.replaceState(null, '', '/oidc/callback?status=success');
    renderWithProviders(<OidcCallback />, { url: '/oidc/callback' });
    expect(postMessage).not.toHaveBeenCalled();
  });
});
