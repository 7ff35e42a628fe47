/** A translation file: nested objects of texts. */
export type Tree = { [key: string]: string | Tree };

/** Every text of a translation file by its dotted key (`users.title` → "Users"). */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}
