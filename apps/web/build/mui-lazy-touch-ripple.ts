import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const SHIM_ID = '\0mui-lazy-touch-ripple';
const IMPORT = './TouchRipple.mjs';

/**
 * Takes MUI's TouchRipple (its keyframes, styles and reduced-motion hook) out of the first render:
 * ButtonBase mounts the ripple only at a button's first press or keyboard focus (MUI's
 * useLazyRipple), so its code loads when the browser is idle instead, in its own Suspense, never the
 * page's. A press before it has loaded gets no ripple; the button works as ever. Checked like
 * mui-without-textarea.ts: if MUI moves the import, the build fails here.
 */
export function muiLazyTouchRipple(): Plugin {
  const require = createRequire(import.meta.url);
  // The package's exports name the folder, not the file: the files are found beside its index.
  const folder = realpathSync(path.dirname(require.resolve('@mui/material/ButtonBase')));
  const buttonBase = path.join(folder, 'ButtonBase.mjs');
  const touchRipple = path.join(folder, 'TouchRipple.mjs');
  let substituted = false;

  return {
    name: 'mui-lazy-touch-ripple',
    enforce: 'pre',
    apply: 'build',
    buildStart() {
      if (!existsSync(buttonBase) || !readFileSync(buttonBase, 'utf8').includes(`from "${IMPORT}"`)) {
        this.error(`@mui/material/ButtonBase no longer imports ${IMPORT}: review build/mui-lazy-touch-ripple.ts`);
      }
    },
    resolveId(source, importer) {
      if (source !== IMPORT || !importer || realpathSync(importer) !== buttonBase) return null;
      substituted = true;
      return SHIM_ID;
    },
    load(id) {
      if (id !== SHIM_ID) return null;
      return `import * as React from 'react';
let loading;
// A ripple that cannot be loaded is left out, not the page (React would unmount it for a lazy failure).
const load = () => (loading ??= import(${JSON.stringify(touchRipple)}).catch((error) => {
  console.warn('The ripple of the buttons could not be loaded', error);
  return { default: () => null };
}));
const Lazy = React.lazy(load);
if (typeof window !== 'undefined') {
  if ('requestIdleCallback' in window) window.requestIdleCallback(() => void load(), { timeout: 3000 });
  else setTimeout(() => void load(), 1000);
}
const TouchRipple = React.forwardRef(function LazyTouchRipple(props, ref) {
  return React.createElement(React.Suspense, { fallback: null }, React.createElement(Lazy, { ...props, ref }));
});
export default TouchRipple;
`;
    },
    buildEnd(error) {
      if (!error && !substituted)
        this.error('ButtonBase was not built with a lazy TouchRipple: review build/mui-lazy-touch-ripple.ts');
    },
  };
}
