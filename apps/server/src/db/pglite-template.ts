import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

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

/** Where the template of this version lives: the temporary folder, as a cache anyone may delete. */
export function templateFile(): string {
  return path.join(os.tmpdir(), `${PREFIX}${templateKey()}.tar`);
}

/** The template's data folder, when one was made for this version. */
export function readTemplate(): Blob | undefined {
  try {
    return new Blob([readFileSync(templateFile())]);
  } catch {
    return undefined;
  }
}

/**
 * Keeps the data folder of a database just created and migrated, before any row is written, as
 * the next new database's start: PGlite's initdb costs most of a first start, and every new
 * database's folder is the same until then. A failure to write it only costs the next start time.
 */
export async function saveTemplate(pglite: PGlite): Promise<void> {
  const file = templateFile();
  try {
    const dump = await pglite.dumpDataDir('none');
    // Written whole, then renamed: a server starting beside this one never reads half of it.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    removeStaleTemplates(file);
  } catch {
    // The temporary folder may be read-only or full: the next new database runs initdb again.
  }
}

/** Templates of other versions, once they are a day old. */
function removeStaleTemplates(current: string): void {
  for (const name of readdirSync(os.tmpdir())) {
    const other = path.join(os.tmpdir(), name);
    if (name.startsWith(PREFIX) && other !== current && statSync(other).mtimeMs < Date.now() - 86_400_000) {
      rmSync(other, { force: true });
    }
  }
}
