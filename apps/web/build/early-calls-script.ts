import type { Plugin } from 'vite';

/** The build's entry name of src/early-calls.ts (see vite.config.ts). */
export const EARLY_CALLS_ENTRY = 'early-calls';
/** The module's source, under the page's base, in development. */
const SOURCE = 'src/early-calls.ts';

/**
 * Loads src/early-calls.ts from the head of the HTML as a small async module of its own, so that
 * the page's first calls start while its bundle downloads. In the build it is an entry
 * of its own, which the bundle also imports (a module runs once); this plugin adds its script tag,
 * in development the source file's.
 *
 * It also chooses the build's chunks for the first render, in two groups:
 * - the early script's modules, which stay in its own chunk: it imports nothing, so its calls
 *   leave as soon as it arrives, not once a chunk it shares with the bundle has come too;
 * - everything else that index.html loads, in one chunk. Left to itself the bundler splits what
 *   the first render shares with the lazy parts into chunks of their own: seven files instead of
 *   two, and in a cold load (a new browser profile) the page's first row came later. The lazy
 *   parts import what they share from it.
 * The build fails if the early script's chunk would import anything.
 * Long as one plugin: its hooks share the entry's and the early script's names across the build.
 */
export function earlyCallsScript(): Plugin {
  let base = '/';
  // The modules the early script imports, itself included: found once the module graph is built,
  // read when the chunks are made.
  const earlyModules = new Set<string>();
  return {
    name: 'early-calls-script',
    config(_config, { command }) {
      if (command !== 'build') return;
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  { name: EARLY_CALLS_ENTRY, priority: 2, test: (id: string) => earlyModules.has(id) },
                  { name: 'index', priority: 1, tags: ['$initial'] },
                ],
              },
            },
          },
        },
      };
    },
    configResolved(config) {
      base = config.base;
    },
    buildStart() {
      earlyModules.clear(); // a rebuild in watch mode finds them again
    },
    buildEnd() {
      const entry = [...this.getModuleIds()].find((id) => id.replaceAll('\\', '/').endsWith(`/${SOURCE}`));
      const pending = entry ? [entry] : [];
      for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
        if (earlyModules.has(id)) continue;
        earlyModules.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
    generateBundle(_options, bundle) {
      const chunk = Object.values(bundle).find(
        (output) => output.type === 'chunk' && output.isEntry && output.name === EARLY_CALLS_ENTRY,
      );
      if (chunk?.type === 'chunk' && chunk.imports.length > 0) {
        this.error(`The early calls' chunk imports ${chunk.imports.join(', ')}: its calls would wait for them`);
      }
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
