import { createHash, type Hash } from 'node:crypto';
import {
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
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { type Db, migrate } from '../../src/db/database.ts';
import { PGliteDialect } from '../../src/db/pglite-dialect.ts';
import { seedDemoIfEmpty } from '../../src/db/seed.ts';

const databaseCode = path.resolve(import.meta.dirname, '../../src/db');

/** Adds every file of the database code (migrations, seeds) to `hash`: a template made from it changes with it. */
export function hashDatabaseCode(hash: Hash): Hash {
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(readFileSync(file));
    }
  };
  walk(databaseCode);
  return hash;
}

let template: Promise<Blob> | undefined;

/**
 * A PGlite data folder, migrated and seeded with the demo, made once per version of the database
 * code and kept in the temporary folder: a test database loaded from it starts in a fraction of
 * the time that migrating and seeding a new one takes.
 */
export function demoTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = path.join(
      os.tmpdir(),
      `users-admin-api-demo-${hashDatabaseCode(createHash('sha256')).digest('hex').slice(0, 16)}.tar`,
    );
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    // Templates of other versions of the database code, once they are a day old.
    for (const name of readdirSync(os.tmpdir())) {
      const other = path.join(os.tmpdir(), name);
      if (name.startsWith('users-admin-api-demo-') && statSync(other).mtimeMs < Date.now() - 86_400_000) {
        rmSync(other, { force: true });
      }
    }
    const pglite = await PGlite.create('memory://');
    const db: Db = new Kysely({ dialect: new PGliteDialect(pglite) });
    await migrate(db);
    await seedDemoIfEmpty(db);
    const dump = await pglite.dumpDataDir('none');
    await db.destroy();
    // Written whole, then renamed: a test file running beside this one never reads half of it.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return template;
}

/**
 * A new PGlite data folder holding the demo, for a server run in its own process: loaded from the
 * template instead of migrated and seeded by the server's first start. The caller removes it.
 */
export async function demoDataFolder(prefix = 'users-admin-demo-'): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const pglite = await PGlite.create(dataDir, { loadDataDir: await demoTemplate() });
  await pglite.close();
  return dataDir;
}
