import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
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
    scripts: files.filter((file) => file.endsWith('.js')).map((file) => ({ file, code: read(file) })),
    styles: files.filter((file) => file.endsWith('.css')).map((file) => ({ file, code: read(file) })),
  };
}

describe.skipIf(!existsSync(path.join(DIST, 'index.html')))('the first render', () => {
  // Measured as the page benchmark measures it (e2e/bench/page-bench.ts): scripts and style sheets,
  // each gzipped at level 9.
  it(`loads at most ${BUDGET_KB} KB of JavaScript and CSS, gzipped`, () => {
    const { scripts, styles } = firstRender();
    const files = [...scripts, ...styles];
    const bytes = files.reduce((sum, { code }) => sum + gzipSync(code, { level: 9 }).length, 0);
    console.info(`first-render JavaScript and CSS: ${(bytes / 1000).toFixed(2)} KB gzip in ${files.length} files`);
    expect(bytes / 1000).toBeLessThanOrEqual(BUDGET_KB);
  });

  it('leaves out the user/group picker, the tooltips and MUI CSS theme variables', () => {
    for (const { file, code } of firstRender().scripts) {
      // useAutocomplete (the picker), Popper (tooltips), CSS-variables theme provider.
      for (const marker of ['aria-autocomplete', 'data-popper-placement', 'colorSchemeSelector']) {
        expect(code.includes(marker), `${marker} in ${file}`).toBe(false);
      }
    }
  });

  it('bundles the variable font, each subset by unicode-range, and preloads none', () => {
    const { html, styles } = firstRender();
    expect(html).not.toMatch(/rel="preload"[^>]*woff2/);
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
});
