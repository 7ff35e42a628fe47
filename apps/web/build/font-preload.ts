import type { Plugin } from 'vite';

/** The Latin subset of the page's font (@fontsource-variable/inter), which nearly every page uses. */
const LATIN_FONT = /(^|\/)inter-latin-wght-normal-[\w-]+\.woff2$/;

/**
 * Preloads the Latin subset of the page's font from index.html's head, while the bundle downloads:
 * otherwise the font is asked for only once the first render is laid out, which is then laid out
 * again when it arrives, the text changing face under the reader. The build fails if the font is
 * no longer in it, rather than preloading nothing.
 */
export function fontPreload(): Plugin {
  let base = '/';
  return {
    name: 'font-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle) return [];
        const font = Object.keys(context.bundle).find((fileName) => LATIN_FONT.test(fileName));
        if (!font) throw new Error('font-preload: the build has no Latin Inter font to preload');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `${base}${font}`, as: 'font', type: 'font/woff2', crossorigin: true },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
