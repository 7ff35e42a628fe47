import type { Plugin } from 'vite';

/** The build's entry name of src/early-calls.ts (see vite.config.ts). */
export const EARLY_CALLS_ENTRY = 'early-calls';
/** The module's source, under the page's base, in development. */
const SOURCE = 'src/early-calls.ts';

/**
 * Loads src/early-calls.ts from the head of the HTML as a small async module of its own, so that
 * the page's first calls start while its bundle downloads (issue 6). In the build it is an entry
 * of its own, which the bundle also imports (a module runs once); this plugin adds its script tag,
 * in development the source file's.
 */
export function earlyCallsScript(): Plugin {
  let base = '/';
  return {
    name: 'early-calls-script',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        let src = `${base}${SOURCE}`;
        if (context.bundle) {
          const chunk = Object.values(context.bundle).find(
            (output) => output.type === 'chunk' && output.isEntry && output.name === EARLY_CALLS_ENTRY,
          );
          if (!chunk) throw new Error(`The build has no "${EARLY_CALLS_ENTRY}" entry (vite.config.ts)`);
          src = `${base}${chunk.fileName}`;
        }
        return [
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}
