import { renderHook, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from './i18n.ts';
import { useSessionLanguage } from './use-session-language.ts';

afterEach(async () => {
  await applyLocale('en');
});

describe('useSessionLanguage', () => {
  it('holds the page while the session is looked up', () => {
    const { result } = renderHook(() => useSessionLanguage(undefined, false));
    expect(result.current).toBe(false);
  });

  it('shows the page once the session’s language is in place, not before', async () => {
    const { result } = renderHook(() => useSessionLanguage('nl-BE', true));
    expect(result.current).toBe(false);
    await waitFor(() => expect(result.current).toBe(true));
    expect(i18n.language).toBe('nl');
    expect(document.documentElement.lang).toBe('nl');
  });

  it('shows the page at once when the session speaks the language already shown', () => {
    const { result } = renderHook(() => useSessionLanguage('en-GB', true));
    expect(result.current).toBe(true);
  });

  it('shows the page, in the language it has, when the lookup failed', () => {
    const { result } = renderHook(() => useSessionLanguage(undefined, true));
    expect(result.current).toBe(true);
  });
});
