import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What is worth compressing: scripts, styles and the like; fonts and images are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|svg|txt)$/;
/** Smaller files gain nothing that a response's headers would not take back. */
const MIN_BYTES = 1024;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside each compressible
 * file of the build, once, so the server sends the page's scripts and styles already compressed
 * instead of compressing them for each request: @fastify/static's `preCompressed` serves the copy the
 * browser's `Accept-Encoding` takes, the file itself to others (apps/server's web-app
 * plugin). The copies are made from the files as written (Vite rewrites chunks up to the end of
 * `generateBundle`; e2e/specs/first-render-bundle.spec.ts checks that each copy equals its file).
 * Source maps are left as they are: only developer tools load them.
 */
export function precompressedAssets(): Plugin {
  return {
    name: 'precompressed-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '');
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => COMPRESSIBLE.test(fileName))
          .map(async (fileName) => {
            const file = path.join(dir, fileName);
            const bytes = await readFile(file);
            if (bytes.length < MIN_BYTES) return;
            const quality = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
            await Promise.all([
              brotli(bytes, { params: { ...quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).then(
                (compressed) => writeFile(`${file}.br`, compressed),
              ),
              gzipped(bytes, { level: 9 }).then((compressed) => writeFile(`${file}.gz`, compressed)),
            ]);
          }),
      );
    },
  };
}
