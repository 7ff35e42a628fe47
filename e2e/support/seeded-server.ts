import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from './server.ts';

const databaseCode = path.resolve(import.meta.dirname, '../../apps/server/src/db');

/** A fingerprint of the migrations and the demo seed: a new one makes a new template. */
function databaseFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(readFileSync(file));
    }
  };
  walk(databaseCode);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Migrating and seeding a new data folder is most of a server's start-up (~5 s here, 14 s on a busy
 * machine). The first call seeds one folder as `startServer()` does and keeps it as a template; every
 * server then starts on its own copy of it: the same fresh demo data, without the wait.
 */
async function seededTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `users-admin-e2e-seeded-${databaseFingerprint()}`);
  if (existsSync(template)) return template;
  const seeding = await startServer();
  await seeding.stop({ keepData: true });
  try {
    renameSync(seeding.dataDir, template);
  } catch (error) {
    // Another run made it meanwhile: use theirs.
    rmSync(seeding.dataDir, { recursive: true, force: true });
    if (!existsSync(template)) throw error;
  }
  return template;
}

/** The real server on a fresh copy of the seeded demo data; `stop()` removes the copy. */
export async function startSeededServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-e2e-'));
  cpSync(await seededTemplate(), dataDir, { recursive: true });
  const server = await startServer({ ...env, DATA_DIR: dataDir });
  return {
    ...server,
    async stop(options = {}) {
      await server.stop(options);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
