// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { toCallbackMessage } from './oidc-callback.tsx';

describe('the silent sign-in callback message', () => {
  it('reports success', () => {
    expect(toCallbackMessage('?status=success')).toEqual({ type: 'oidc_callback', status: 'success' });
  });

  it('reports the error, or server_error when none is given', () => {
    expect(toCallbackMessage('?status=error&error=login_required')).toEqual({
      type: 'oidc_callback',
      status: 'error',
      error: 'login_required',
    });
    expect(toCallbackMessage('')).toEqual({ type: 'oidc_callback', status: 'error', error: 'server_error' });
  });
});
