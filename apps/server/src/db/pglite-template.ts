import { createHash } from 'node:crypto';
import {
  constants,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const PREFIX = 'users-admin-pglite-schema-';
const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** PGlite's version and the migrations' text: a template made by other ones is not used. */
function templateKey(): string {
  // Resolved the CommonJS way: synchronously in this thread, not through the ESM loader's hooks.
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const hash = createHash('sha256').update(readFileSync(path.join(pgliteEntry, '../../package.json')));
  for (const name of readdirSync(migrationsFolder).sort()) {
    hash.update(name).update(readFileSync(path.join(migrationsFolder, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The template of this version: a data folder in the temporary folder, a cache anyone may delete. */
function templateFolder(): string {
  return path.join(os.tmpdir(), `${PREFIX}${templateKey()}`);
}

export function hasTemplate(): boolean {
  return existsSync(path.join(templateFolder(), 'PG_VERSION'));
}

/**
 * Fills a new, empty data folder with the template when there is one. A copy of a cleanly closed
 * folder opens as fast as any folder, sooner than PGlite unpacks a dump (copy-on-write where the
 * file system can).
 */
export function copyTemplate(dataDir: string): boolean {
  if (!hasTemplate()) return false;
  cpSync(templateFolder(), dataDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
  return true;
}

/**
 * Keeps the data folder of a database just created and migrated, before any row is written, as
 * the next new database's start: PGlite's initdb costs most of a first start, and every new
 * database's folder is the same until then. A failure to keep it only costs the next start time.
 */
export async function saveTemplate(pglite: PGlite): Promise<void> {
  const folder = templateFolder();
  const partial = mkdtempSync(`${folder}.partial-`);
  try {
    const dump = await pglite.dumpDataDir('none');
    // Unpacked and closed, so that copies open without recovery; renamed whole, so that a server
    // starting beside this one never copies half of it.
    await (await PGlite.create(partial, { loadDataDir: dump })).close();
    if (!hasTemplate()) renameSync(partial, folder);
    removeStaleTemplates(folder);
  } catch {
    // The temporary folder may be read-only or full: the next new database runs initdb again.
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** Templates of other versions, and unfinished ones, once they are a day old. */
function removeStaleTemplates(current: string): void {
  for (const name of readdirSync(os.tmpdir())) {
    const other = path.join(os.tmpdir(), name);
    if (name.startsWith(PREFIX) && other !== current && statSync(other).mtimeMs < Date.now() - 86_400_000) {
      rmSync(other, { recursive: true, force: true });
    }
  }
}
