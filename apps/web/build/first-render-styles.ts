import { fileURLToPath } from 'node:url';
import { type Targets, transform } from 'lightningcss';
import { createServer, type HtmlTagDescriptor, type Plugin } from 'vite';

const ENTRY = '/build/first-render.tsx';
/** The part the first render asks for and draws once it has loaded (users-page.tsx). */
const LAZY_FOOTER = '/src/features/users/components/users-pagination.tsx';

/**
 * Writes the Emotion styles of the Users page's first render into index.html, in the elements
 * Emotion itself writes beside a server-rendered page (`<style data-emotion="css id1 id2 …">`, and
 * `css-global` ones for global styles). Emotion adopts them when its cache is created and marks
 * their styles as inserted, so the first render no longer compiles and inserts them one by one:
 * the first user row came 16 ms sooner cold and 18 ms warm (issue 6, 25 interleaved loads).
 *
 * The styles are Emotion's own: build/first-render.tsx renders the page's first render with
 * react-dom/server in Vite's server-side module runner, with the build's production code of
 * MUI and Emotion, so their class names are those the browser computes. Styles the browser's
 * first render needs and this render did not give (another language's theme, filters in the
 * address) are inserted as before; the page looks the same either way. They are minified for the
 * build's browsers (lightningcss, which Vite itself uses).
 *
 * If the page cannot be rendered here, the build fails: the page would still work, but its first
 * row would come later without anyone noticing.
 */
export function firstRenderStyles(): Plugin {
  let cssTarget: string | string[] | false = false;
  return {
    name: 'first-render-styles',
    apply: 'build',
    configResolved(config) {
      cssTarget = config.build.cssTarget;
    },
    transformIndexHtml: {
      order: 'post',
      async handler() {
        const html = await renderFirstRender();
        return emotionStyleTags(html, lightningTargets(cssTarget));
      },
    },
  };
}

/** The first render's HTML, rendered in a Vite server of its own (no file watching, no sockets). */
async function renderFirstRender(): Promise<string> {
  const server = await createServer({
    configFile: false,
    root: fileURLToPath(new URL('..', import.meta.url)),
    mode: 'production',
    logLevel: 'warn',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const entry = (await server.ssrLoadModule(ENTRY)) as typeof import('./first-render.tsx');
    const html = entry.renderFirstRender();
    // The render asked for the lazy footer; its import settles before the server closes.
    await server.ssrLoadModule(LAZY_FOOTER);
    await new Promise((resolve) => setImmediate(resolve));
    return html;
  } finally {
    await server.close();
  }
}

/**
 * The `<style data-emotion>` elements of a server-rendered page, for its head: the global ones as
 * they are, then one with every other style, in the order the page first used them.
 */
export function emotionStyleTags(html: string, targets: Targets): HtmlTagDescriptor[] {
  const globals: HtmlTagDescriptor[] = [];
  const ids: string[] = [];
  let css = '';
  for (const [, attribute = '', rules = ''] of html.matchAll(/<style data-emotion="([^"]+)"[^>]*>(.*?)<\/style>/gs)) {
    const [key, ...names] = attribute.split(' ');
    if (key === 'css-global') {
      globals.push(styleTag(attribute, minify(rules, targets)));
    } else if (key === 'css') {
      ids.push(...names);
      css += rules;
    } else {
      throw new Error(`first-render-styles: a style of an unexpected Emotion cache, "${key}"`);
    }
  }
  if (ids.length === 0) throw new Error('first-render-styles: the first render gave no Emotion styles');
  return [...globals, styleTag(`css ${ids.join(' ')}`, minify(css, targets))];
}

function styleTag(emotion: string, css: string): HtmlTagDescriptor {
  if (css.includes('</')) throw new Error('first-render-styles: a style holds "</"');
  return { tag: 'style', attrs: { 'data-emotion': emotion }, children: css, injectTo: 'head' };
}

function minify(css: string, targets: Targets): string {
  return transform({ filename: 'first-render.css', code: Buffer.from(css), minify: true, targets }).code.toString();
}

/** Vite's `build.cssTarget` ("chrome111", "safari16.4"…) as lightningcss's targets. */
export function lightningTargets(cssTarget: string | string[] | false): Targets {
  if (cssTarget === false) return {};
  const targets: Record<string, number> = {};
  for (const target of [cssTarget].flat()) {
    const match = /^(chrome|edge|firefox|safari|ios|opera|samsung)(\d+)(?:\.(\d+))?/.exec(target);
    if (!match) continue;
    const [, browser = '', major = '0', minor = '0'] = match;
    targets[browser === 'ios' ? 'ios_saf' : browser] = (Number(major) << 16) | (Number(minor) << 8);
  }
  return targets as Targets;
}
