import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The page's first render (what index.html loads before any lazy import) against its budget, and
// what must stay out of it. Reads the build: `npm run build` first (npm run test:browser does).
const DIST = path.resolve(import.meta.dirname, '../../apps/web/dist');
const BUDGET_KB = 180;

function firstRender() {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  // Once each: the early calls' script is both a script of the head and a module preload.
  const files = [
    ...new Set(
      [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+)"[^>]*>/g)].map(
        (match) => match[1] ?? '',
      ),
    ),
  ];
  const read = (file: string) => readFileSync(path.join(DIST, file), 'utf8');
  return {
    html,
    // Style elements of the HTML, if any, count too.
    inlineStyles: [...html.matchAll(/<style\b[^>]*>.*?<\/style>/gs)].map((match) => match[0]).join(''),
    scripts: files.filter((file) => file.endsWith('.js')).map((file) => ({ file, code: read(file) })),
    styles: files.filter((file) => file.endsWith('.css')).map((file) => ({ file, code: read(file) })),
  };
}

describe.skipIf(!existsSync(path.join(DIST, 'index.html')))('the first render', () => {
  // Measured as the page benchmark measures it (e2e/bench/page-bench.ts): scripts, style sheets and
  // the style elements of the HTML, each file and the style elements together gzipped at level 9.
  it(`loads at most ${BUDGET_KB} KB of JavaScript and CSS, gzipped`, () => {
    const { scripts, styles, inlineStyles } = firstRender();
    const files = [...scripts, ...styles, { code: inlineStyles }];
    const bytes = files.reduce((sum, { code }) => sum + gzipSync(code, { level: 9 }).length, 0);
    console.info(`first-render JavaScript and CSS: ${(bytes / 1000).toFixed(2)} KB gzip in ${files.length} parts`);
    expect(bytes / 1000).toBeLessThanOrEqual(BUDGET_KB);
  });

  // The server sends these copies in place of the files (apps/web/build/precompressed-assets.ts):
  // a copy made before the build's last rewrite of a chunk would break the page in the browser.
  it('has a Brotli and a gzip copy of each script and style sheet of 1 KB or more, equal to it', () => {
    const assets = path.join(DIST, 'assets');
    const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
    let compressed = 0;
    for (const name of files) {
      const file = readFileSync(path.join(assets, name));
      const copies = [`${name}.br`, `${name}.gz`].filter((copy) => existsSync(path.join(assets, copy)));
      expect(copies.length, name).toBe(file.length >= 1024 ? 2 : 0);
      if (copies.length === 0) continue;
      compressed++;
      expect(brotliDecompressSync(readFileSync(path.join(assets, `${name}.br`))).equals(file), `${name}.br`).toBe(true);
      expect(gunzipSync(readFileSync(path.join(assets, `${name}.gz`))).equals(file), `${name}.gz`).toBe(true);
    }
    expect(compressed).toBeGreaterThan(10);
  });

  it('leaves out the user/group picker, the tooltips, zod and MUI CSS theme variables', () => {
    for (const { file, code } of firstRender().scripts) {
      // useAutocomplete (the picker), Popper (tooltips), zod's error map, CSS-variables theme provider.
      for (const marker of ['aria-autocomplete', 'data-popper-placement', 'invalid_type', 'colorSchemeSelector']) {
        expect(code.includes(marker), `${marker} in ${file}`).toBe(false);
      }
    }
  });

  // apps/web/build/font-preload.ts: the Latin subset only, which nearly every page uses, asked for
  // while the bundle downloads rather than once the first render is laid out.
  it('bundles the variable font, each subset by unicode-range, and preloads its Latin subset only', () => {
    const { html, styles } = firstRender();
    const preloads = [...html.matchAll(/<link rel="preload"[^>]*>/g)].map(([link]) => link);
    expect(preloads).toEqual([
      expect.stringMatching(
        /^<link rel="preload" href="\/assets\/inter-latin-wght-normal-[\w-]+\.woff2" as="font" type="font\/woff2" crossorigin>$/,
      ),
    ]);
    const css = styles.map(({ code }) => code).join('\n');
    const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
    expect(faces.length).toBeGreaterThanOrEqual(7);
    for (const face of faces) {
      expect(face).toContain('font-family:Inter Variable');
      expect(face).toMatch(/src:url\(\/assets\/inter-[a-z-]+-wght-normal-[\w-]+\.woff2\)/);
      expect(face).toContain('unicode-range:');
    }
    // No font from another host.
    expect(css).not.toMatch(/url\((?:https?:)?\/\//);
  });

  // apps/web/build/early-calls-script.ts: the early calls leave as soon as their script arrives,
  // and the rest of the first render is one file (a cold load 29 ms sooner than seven).
  it('is two scripts: the early calls, which import nothing, and one bundle', () => {
    const { html, scripts } = firstRender();
    expect(scripts.map(({ file }) => file.replace(/-[\w-]{8}\.js$/, '.js')).sort()).toEqual([
      '/assets/early-calls.js',
      '/assets/index.js',
    ]);
    const early = scripts.find(({ file }) => file.includes('/early-calls-'));
    expect(early?.code).not.toMatch(/\bimport\s*[{"'`(*\w]/);
    expect(html).toMatch(/<script type="module" async crossorigin src="\/assets\/early-calls-/);
  });
});
