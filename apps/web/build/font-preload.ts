import type { Plugin } from 'vite';

/** The Latin subset of the page's font (@fontsource-variable/inter), which nearly every page uses. */
const LATIN_FONT = /(^|\/)inter-latin-wght-normal-[\w-]+\.woff2$/;

/**
 * Preloads the Latin subset of the page's font from index.html's head. A page the server drew is
 * laid out as soon as its HTML is read, before the style sheet that names the font has asked for
 * it: Chromium then laid it out with a fallback font (its first layout here: 120 ms, against about
 * 50 with the font there) and again once Inter arrived, and the text changed face under the reader
 * (issue 6). The build fails if the font is no longer in it, rather than preloading nothing.
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
