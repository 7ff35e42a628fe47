import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const SHIM_ID = '\0mui-input-without-textarea';
const IMPORT = '../TextareaAutosize/index.mjs';

/**
 * Leaves MUI's TextareaAutosize out of the build: InputBase imports it for multiline inputs, which
 * the page never draws (its search box and selects are one line), and it sat in the first render.
 * A multiline input would throw the error below instead of drawing. Checked like
 * mui-without-css-variables.ts: if MUI moves the import, the build fails here.
 */
export function muiWithoutTextarea(): Plugin {
  const require = createRequire(import.meta.url);
  // The package's exports name the folder, not the file: the file is found beside its index.
  const inputBase = path.join(realpathSync(path.dirname(require.resolve('@mui/material/InputBase'))), 'InputBase.mjs');
  let substituted = false;

  return {
    name: 'mui-without-textarea',
    enforce: 'pre',
    apply: 'build',
    buildStart() {
      if (!existsSync(inputBase) || !readFileSync(inputBase, 'utf8').includes(`from "${IMPORT}"`)) {
        this.error(`@mui/material/InputBase no longer imports ${IMPORT}: review build/mui-without-textarea.ts`);
      }
    },
    resolveId(source, importer) {
      if (source !== IMPORT || !importer || realpathSync(importer) !== inputBase) return null;
      substituted = true;
      return SHIM_ID;
    },
    load(id) {
      if (id !== SHIM_ID) return null;
      return `export default function TextareaAutosize() {
  throw new Error('Multiline inputs are left out of the build: see apps/web/build/mui-without-textarea.ts');
}
`;
    },
    buildEnd(error) {
      if (!error && !substituted)
        this.error('InputBase was not built without TextareaAutosize: review build/mui-without-textarea.ts');
    },
  };
}
