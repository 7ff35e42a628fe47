import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

/** `loadConfig(env)` as a command run in `folder` reads it. */
function loadConfigIn(folder: string, env: NodeJS.ProcessEnv) {
  const before = process.cwd();
  process.chdir(folder);
  try {
    return loadConfig(env);
  } finally {
    process.chdir(before);
  }
}

it("keeps the embedded database in the repository's data folder whichever folder a command runs in", () => {
  // `npm start` runs the server from the root; `npm run seed` and `npm run dev` run in apps/server.
  const data = path.join(repositoryRoot, 'data');
  expect(loadConfigIn(repositoryRoot, {}).dataDir).toBe(data);
  expect(loadConfigIn(path.join(repositoryRoot, 'apps/server'), {}).dataDir).toBe(data);
});

it('takes a DATA_DIR that is set from the folder the command runs in', () => {
  const server = path.join(repositoryRoot, 'apps/server');
  expect(loadConfigIn(server, { DATA_DIR: 'elsewhere' }).dataDir).toBe(path.join(server, 'elsewhere'));
  expect(loadConfigIn(server, { DATA_DIR: '/srv/users-admin' }).dataDir).toBe('/srv/users-admin');
});

it('takes SUPPORT_URL as a mailto: address or an https URL, and refuses anything else', () => {
  expect(loadConfig({}).app.supportUrl).toBe('mailto:support@platform.example');
  expect(loadConfig({ SUPPORT_URL: 'mailto:help@acme.example' }).app.supportUrl).toBe('mailto:help@acme.example');
  expect(loadConfig({ SUPPORT_URL: 'https://support.acme.example/new' }).app.supportUrl).toBe(
    'https://support.acme.example/new',
  );
  for (const refused of ['javascript:alert(1)', 'http://support.acme.example', 'mailto:', 'support@acme.example', '']) {
    expect(() => loadConfig({ SUPPORT_URL: refused }), refused).toThrow(/SUPPORT_URL: expected a mailto: address/);
  }
});
