import { AUTH_START_PATH, type OidcCallbackMessage } from '@users-admin/contract';
import i18next from 'i18next';
import { rememberedLanguage } from '../i18n/remembered-language.ts';

export const SILENT_SIGN_IN_TIMEOUT_MS = 60_000;

/** Silent sign-in errors that only a visible sign-in can resolve (SPEC.md §8). */
const INTERACTIVE_ERRORS = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

export function isOidcCallbackMessage(data: unknown): data is OidcCallbackMessage {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  return (
    message.type === 'oidc_callback' &&
    (message.status === 'success' || (message.status === 'error' && typeof message.error === 'string'))
  );
}

export function silentSignInUrl(origin: string = window.location.origin): string {
  const params = new URLSearchParams({ resource: origin, callback_mode: 'silent', prompt: 'none' });
  return `${AUTH_START_PATH}?${params}`;
}

export function signInUrl(
  location: Pick<Location, 'origin' | 'pathname' | 'search'> = window.location,
  uiLocales: string | undefined = rememberedLanguage(),
): string {
  const params = new URLSearchParams({
    post_auth_redirect_path: `${location.pathname}${location.search}`,
    resource: location.origin,
  });
  // The sign-in pages speak the page's language when the page knows it (SPEC.md §9).
  if (uiLocales) params.set('ui_locales', uiLocales);
  return `${AUTH_START_PATH}?${params}`;
}

/** Leaves the page for the visible sign-in, which comes back to the current path and query. */
export function redirectToSignIn(): void {
  window.location.assign(signInUrl());
}

let inFlight: Promise<boolean> | undefined;

export interface SilentSignInOptions {
  timeoutMs?: number;
  /** Starts the visible sign-in; the page leaves. */
  redirect?: () => void;
}

/**
 * Renews the session in a hidden frame (SPEC.md §7). Resolves true when the session was renewed,
 * false on an error that a visible sign-in would not fix. When only a visible sign-in can help
 * (or after 60 s) it starts that redirect and never settles, so callers keep showing "loading".
 * Concurrent callers share one attempt.
 */
export function silentSignIn(options: SilentSignInOptions = {}): Promise<boolean> {
  inFlight ??= runSilentSignIn(options);
  return inFlight;
}

const never = new Promise<never>(() => {});

function runSilentSignIn({
  timeoutMs = SILENT_SIGN_IN_TIMEOUT_MS,
  redirect = redirectToSignIn,
}: SilentSignInOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const frame = document.createElement('iframe');
    frame.title = i18next.t('auth.silentSignInFrame');
    frame.hidden = true;
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;

    const finish = (outcome: 'renewed' | 'failed' | 'interactive') => {
      // Here rather than in a `finally`: the redirect outcome never settles.
      inFlight = undefined;
      window.clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      frame.remove();
      if (outcome === 'interactive') {
        redirect();
        resolve(never);
      } else {
        resolve(outcome === 'renewed');
      }
    };
    const onMessage = (event: MessageEvent) => {
      // Only our own origin, and only our frame, may answer.
      if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
      if (!isOidcCallbackMessage(event.data)) return;
      if (event.data.status === 'success') finish('renewed');
      else finish(INTERACTIVE_ERRORS.has(event.data.error) ? 'interactive' : 'failed');
    };
    const timer = window.setTimeout(() => finish('interactive'), timeoutMs);

    window.addEventListener('message', onMessage);
    frame.src = silentSignInUrl();
    document.body.append(frame);
  });
}
