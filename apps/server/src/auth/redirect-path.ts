/**
 * Returns `path` if it is a same-origin path to redirect to after sign-in, else `/`.
 * Rejects anything a browser could read as another origin: `//host`, `/\host`, schemes,
 * and control characters; decoding first so that encoded variants are caught too.
 */
export function safeRedirectPath(path: unknown, origin: string): string {
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > 2048) return '/';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return '/';
  }
  for (const candidate of [path, decoded]) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be refused.
    if (/^[/\\][/\\]/.test(candidate) || /[\u0000-\u001f\u007f\\]/.test(candidate)) return '/';
  }
  const url = new URL(path, origin);
  if (url.origin !== new URL(origin).origin) return '/';
  const result = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments are resolved by the parse: `/.//evil.example` comes out as `//evil.example`.
  return /^[/\\][/\\]/.test(result) ? '/' : result;
}
