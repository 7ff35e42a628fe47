import { afterEach, describe, expect, it, vi } from 'vitest';
import { SILENT_SIGN_IN_TIMEOUT_MS, signInUrl, silentSignIn, silentSignInUrl } from './silent-sign-in.ts';

const frame = () => document.querySelector<HTMLIFrameElement>('iframe[title="Silent sign-in"]');

function answer(data: unknown, { origin = window.location.origin, fromFrame = true } = {}) {
  const source = (fromFrame ? frame()?.contentWindow : window) ?? null;
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

afterEach(() => {
  vi.useRealTimers();
  frame()?.remove();
});

describe('silent sign-in (SPEC.md §7, §8)', () => {
  it('opens a hidden frame on /auth/start in silent mode', () => {
    void silentSignIn({ redirect: vi.fn() });
    expect(frame()?.hidden).toBe(true);
    expect(frame()?.getAttribute('src')).toBe(silentSignInUrl());
    expect(silentSignInUrl('https://app.example')).toBe(
      '/auth/start?resource=https%3A%2F%2Fapp.example&callback_mode=silent&prompt=none',
    );
    answer({ type: 'oidc_callback', status: 'success' });
  });

  it('resolves true on success, ignoring messages from elsewhere, and removes the frame', async () => {
    const redirect = vi.fn();
    const result = silentSignIn({ redirect });
    answer({ type: 'oidc_callback', status: 'error', error: 'login_required' }, { origin: 'https://evil.example' });
    answer({ type: 'oidc_callback', status: 'error', error: 'login_required' }, { fromFrame: false });
    answer({ type: 'something_else' });
    answer({ type: 'oidc_callback', status: 'success' });
    await expect(result).resolves.toBe(true);
    expect(redirect).not.toHaveBeenCalled();
    expect(frame()).toBeNull();
  });

  it('shares one attempt between concurrent callers', async () => {
    const first = silentSignIn({ redirect: vi.fn() });
    const second = silentSignIn({ redirect: vi.fn() });
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    answer({ type: 'oidc_callback', status: 'success' });
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
  });

  it.each(['login_required', 'interaction_required', 'consent_required', 'account_selection_required'])(
    'redirects to the visible sign-in on %s',
    async (error) => {
      const redirect = vi.fn();
      void silentSignIn({ redirect });
      answer({ type: 'oidc_callback', status: 'error', error });
      await vi.waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
    },
  );

  it('resolves false on another error', async () => {
    const redirect = vi.fn();
    const result = silentSignIn({ redirect });
    answer({ type: 'oidc_callback', status: 'error', error: 'server_error' });
    await expect(result).resolves.toBe(false);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('redirects after 60 seconds without an answer', async () => {
    vi.useFakeTimers();
    const redirect = vi.fn();
    void silentSignIn({ redirect });
    vi.advanceTimersByTime(SILENT_SIGN_IN_TIMEOUT_MS - 1);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(frame()).toBeNull();
  });

  it('the visible sign-in comes back to the current path and query', () => {
    expect(signInUrl({ origin: 'https://app.example', pathname: '/', search: '?page=2&search=ann' })).toBe(
      '/auth/start?post_auth_redirect_path=%2F%3Fpage%3D2%26search%3Dann&resource=https%3A%2F%2Fapp.example',
    );
  });

  it('asks the identity provider for the language of the last session, when the page knows it', () => {
    const location = { origin: 'https://app.example', pathname: '/', search: '' };
    expect(signInUrl(location, 'de')).toBe(
      '/auth/start?post_auth_redirect_path=%2F&resource=https%3A%2F%2Fapp.example&ui_locales=de',
    );
    window.localStorage.setItem('users-admin.language', 'ja');
    expect(new URL(signInUrl(location), 'https://app.example').searchParams.get('ui_locales')).toBe('ja');
    window.localStorage.clear();
  });
});
