import type { TestProject } from 'vitest/node';
import { launchBrowser } from './browser.ts';
import { ACME_ADMIN, ACME_USER } from './demo-data.ts';
import type { StorageState } from './seeded-server.ts';
import { startSeededServer } from './seeded-server.ts';

/** The shared server's addresses of the pages around this one: the specs of its links read them. */
export const SHARED_LINKS = {
  HOME_URL: 'http://home.example/acme/',
  LAUNCHPAD_URL: 'http://launchpad.example/',
  SUPPORT_URL: 'https://support.acme.example/help',
} as const;

/** The server that spec files which only read share, started once for the whole run. */
export interface SharedServer {
  baseUrl: string;
  states: Record<string, StorageState>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedServer: SharedServer;
  }
}

/**
 * Vitest's global set-up of the browser tests: one server on the seeded demo data for the spec
 * files that only read it (`suite.start({ shared: true })`); also makes the seeded template, once,
 * before the workers start. Stopped when the run ends.
 */
export default async function setup(project: TestProject) {
  let browser: ReturnType<typeof launchBrowser> | undefined;
  const { server, states } = await startSeededServer(
    () => {
      browser ??= launchBrowser();
      return browser;
    },
    [ACME_ADMIN, ACME_USER],
    SHARED_LINKS,
  );
  await (await browser)?.close();
  project.provide('sharedServer', { baseUrl: server.baseUrl, states });
  return () => server.stop();
}
