/**
 * The file name a `content-disposition` header gives (RFC 6266): `filename*` (UTF-8, percent-encoded)
 * before `filename`; undefined when it gives none. Path parts are dropped: a name, not a place.
 */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  let name: string | undefined;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header)?.slice(1).find(Boolean);
  const base = name?.replace(/\\(.)/g, '$1').split(/[/\\]/).pop()?.trim();
  return base || undefined;
}
