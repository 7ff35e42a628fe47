import { defineConfig } from 'vitest/config';

/**
 * `expect.poll` waits for a condition: its limit must hold on a loaded 2-core machine with cold
 * caches (Vitest's default is 1 s); a test that measures time belongs in a benchmark.
 */
const POLL = { poll: { timeout: 20_000 } };

/** One Vitest run, four projects: `--project` picks the level (see the scripts in package.json). */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: './packages/contract',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      './apps/web/vite.config.ts',
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: POLL,
          // Files share their worker's modules: none mocks one, and each starts its own servers and
          // databases; importing the server again for each file was a fifth of the run (docs/performance.md).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          root: './e2e',
          include: ['specs/**/*.spec.ts'],
          environment: 'node',
          // One server for the spec files that only read (Suite.start({ shared: true })).
          globalSetup: ['./support/shared-server.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          expect: POLL,
          // Two files at a time: each has its own server and browser, and mostly waits on them.
          maxWorkers: 2,
          // As the API tests': no file mocks a module, and each starts its own server and browser.
          isolate: false,
        },
      },
    ],
  },
});
