import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { EARLY_CALLS_ENTRY, earlyCallsScript } from './build/early-calls-script.ts';
import { fontPreload } from './build/font-preload.ts';
import { muiWithoutCssVariables } from './build/mui-without-css-variables.ts';
import { precompressedAssets } from './build/precompressed-assets.ts';

const serverUrl = process.env.API_SERVER_URL ?? 'http://127.0.0.1:3000';
const serverPaths = ['/apis', '/auth', '/idp', '/interaction', '/app-config.json', '/mfe'];

export default defineConfig({
  plugins: [react(), muiWithoutCssVariables(), earlyCallsScript(), fontPreload(), precompressedAssets()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The API server keeps the browser's Host, so the sign-in redirects come back to Vite.
    proxy: Object.fromEntries(serverPaths.map((path) => [path, { target: serverUrl, changeOrigin: false }])),
  },
  build: {
    sourcemap: true,
    // Browsers without <link rel="modulepreload"> (Safari before 17, Firefox before 115) load those
    // modules when they are imported instead: the polyfill would only add to the first render.
    modulePreload: { polyfill: false },
    // Everything index.html loads besides the early calls is one chunk by design (545 KB minified,
    // 175 KB gzip: build/early-calls-script.ts, docs/decisions.md), under the 180 KB gzip budget that
    // the page bench and first-render-bundle.spec.ts hold; Vite's 500 KB warning would only repeat
    // that at every build and start.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        // The page's first calls, started from the HTML's head (build/early-calls-script.ts).
        [EARLY_CALLS_ENTRY]: fileURLToPath(new URL('./src/early-calls.ts', import.meta.url)),
      },
      // Building a zod schema has no side effects, so the contract's schemas, which the page does
      // not use, can drop out with zod. `wholeNumber` is the contract's own schema helper.
      treeshake: {
        // `userListQuerySchema` derives the export's query schema from the list's (`.omit`).
        manualPureFunctions: ['z', 'wholeNumber', 'userListQuerySchema'],
        // Nor has reading a property, such as a list's length in a schema's bound.
        propertyReadSideEffects: false,
        // @emotion/react imports hoist-non-react-statics (CommonJS, with an old react-is) for its
        // withTheme only, which the page does not use; the package is not marked free of side
        // effects, so it stayed in the first render: 0.9 KB gzip.
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/]hoist-non-react-statics[\\/]/, sideEffects: false }],
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/testing/setup.ts'],
    // Worker threads start faster than the default child processes; each file still gets its own.
    pool: 'threads',
    // Above the waits' limit (testing/setup.ts), so a wait that runs out says what it waited for.
    testTimeout: 60_000,
    // As for Testing Library's waits: conditions, with limits a loaded machine meets.
    expect: { poll: { timeout: 20_000 } },
  },
});
