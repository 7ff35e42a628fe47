import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { hashDatabaseCode } from '../../apps/server/test/support/demo-template.ts';
import { newPage, signInAs } from './browser.ts';
import { SESSION_API } from './demo-data.ts';
import { type RunningServer, startServer } from './server.ts';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
export type Account = { email: string; password: string };

/** A fingerprint of the migrations, the demo seed and the accounts: a new one makes a new template. */
function fingerprint(accounts: Account[]): string {
  const hash = hashDatabaseCode(createHash('sha256'));
  hash.update(JSON.stringify(accounts));
  // A new template every day, well inside the sessions' lifetime.
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Signs in as a person would, on the identity provider's page, and returns the cookies: the
 * server's session and the identity provider's sign-in.
 */
export async function signIn(browser: Browser, baseUrl: string, account: Account): Promise<StorageState> {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${baseUrl}/`);
    const session = page.waitForResponse((r) => SESSION_API.test(r.url()) && r.status() === 200);
    await signInAs(page, account.email, account.password);
    await session;
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Templates of earlier days or of older database code, once they are two days old. */
function removeOldTemplates() {
  const twoDaysAgo = Date.now() - 2 * 24 * 3600 * 1000;
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith('users-admin-e2e-seeded-')) continue;
    const file = path.join(os.tmpdir(), name);
    if (statSync(file).mtimeMs < twoDaysAgo) rmSync(file, { recursive: true, force: true });
  }
}

interface Template {
  dataDir: string;
  states: Record<string, StorageState>;
}

/**
 * Migrating and seeding a data folder and signing in are most of a spec file's start-up. The first
 * call does them once, as `startServer()` and a person would, and keeps the folder and the cookies as
 * a template; every server then starts on its own copy: the same fresh demo data, already signed in.
 * The template's sessions are made with a long access-token lifetime so that they stay usable all day;
 * sessions made during the tests have the server's default. The cookies are host-only (127.0.0.1), so
 * they hold whatever the port.
 */
async function seededTemplate(browser: () => Promise<Browser>, accounts: Account[]): Promise<Template> {
  const dataDir = path.join(os.tmpdir(), `users-admin-e2e-seeded-${fingerprint(accounts)}`);
  const statesFile = `${dataDir}.sessions.json`;
  if (existsSync(dataDir) && existsSync(statesFile)) {
    return { dataDir, states: JSON.parse(readFileSync(statesFile, 'utf8')) as Record<string, StorageState> };
  }
  removeOldTemplates();
  const seeding = await startServer({ ACCESS_TOKEN_TTL: String(2 * 24 * 3600) });
  const states: Record<string, StorageState> = {};
  try {
    for (const account of accounts) states[account.email] = await signIn(await browser(), seeding.baseUrl, account);
  } finally {
    await seeding.stop({ keepData: true });
  }
  writeFileSync(`${statesFile}.tmp`, JSON.stringify(states));
  try {
    renameSync(seeding.dataDir, dataDir);
    renameSync(`${statesFile}.tmp`, statesFile);
  } catch (error) {
    // Another run made it meanwhile: use theirs.
    rmSync(seeding.dataDir, { recursive: true, force: true });
    rmSync(`${statesFile}.tmp`, { force: true });
    if (!existsSync(statesFile)) throw error;
    return { dataDir, states: JSON.parse(readFileSync(statesFile, 'utf8')) as Record<string, StorageState> };
  }
  return { dataDir, states };
}

/**
 * The real server on a fresh copy of the seeded demo data, with each of `accounts` signed in;
 * `stop()` removes the copy.
 */
export async function startSeededServer(
  /** Needed only when the template must be made. */
  browser: () => Promise<Browser>,
  accounts: Account[],
  env: Record<string, string> = {},
  /** Changes the copy before the server opens it (e.g. through support/database.ts). */
  prepare?: (dataDir: string) => Promise<void>,
): Promise<{ server: RunningServer; states: Record<string, StorageState> }> {
  const template = await seededTemplate(browser, accounts);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-e2e-'));
  cpSync(template.dataDir, dataDir, { recursive: true });
  await prepare?.(dataDir);
  const server = await startServer({ ...env, DATA_DIR: dataDir });
  return {
    server: {
      ...server,
      async stop(options = {}) {
        await server.stop(options);
        if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
      },
    },
    states: template.states,
  };
}
