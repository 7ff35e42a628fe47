/**
 * A value this browser keeps from its last session for the next start-up (in localStorage): a hint
 * only, which the session always overrides. Storage can be switched off (privacy settings,
 * sandboxed frames); then there is no hint and nothing fails.
 */
export interface Hint {
  read(): string | undefined;
  write(value: string): void;
}

export function createHint(key: string): Hint {
  return {
    read() {
      try {
        return window.localStorage.getItem(key) ?? undefined;
      } catch {
        return undefined;
      }
    },
    write(value) {
      try {
        window.localStorage.setItem(key, value);
      } catch {
        // Without storage the next start-up simply has no hint.
      }
    },
  };
}
