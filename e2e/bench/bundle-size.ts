// Sizes of the page's built files, raw and gzip, for the page benchmark's first-render budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface Bundle {
  files: { file: string; raw: number; gzip: number }[];
  js: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
}

/**
 * Sizes of built files, by URL path under the folder the server serves, and of the style elements
 * an HTML file carries (`inlineCss`), which count too.
 */
export function bundleOf(folder: string, paths: string[], inlineCss = ''): Bundle {
  const files = [...new Set(paths)]
    .filter((p) => p.endsWith('.js') || p.endsWith('.css'))
    .map((p) => {
      const content = readFileSync(path.join(folder, p));
      return { file: p, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
    });
  if (inlineCss) {
    files.push({
      file: 'index.html <style>.css',
      raw: inlineCss.length,
      gzip: gzipSync(inlineCss, { level: 9 }).length,
    });
  }
  const sum = (ext: string) =>
    files
      .filter((f) => f.file.endsWith(ext))
      .reduce((total, f) => ({ raw: total.raw + f.raw, gzip: total.gzip + f.gzip }), { raw: 0, gzip: 0 });
  return { files, js: sum('.js'), css: sum('.css') };
}

/** The style elements of an HTML file, together. */
export function htmlStyles(folder: string, html: string): string {
  const page = readFileSync(path.join(folder, html), 'utf8');
  return [...page.matchAll(/<style\b[^>]*>.*?<\/style>/gs)].map((match) => match[0]).join('');
}

/** What index.html itself loads: its scripts, module preloads and style sheets. */
export function htmlAssets(folder: string, html: string): string[] {
  const page = readFileSync(path.join(folder, html), 'utf8');
  return [...page.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+\.(?:js|css))"[^>]*>/g)].map(
    (match) => match[1] ?? '',
  );
}
