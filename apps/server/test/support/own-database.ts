import { afterAll, beforeAll } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '../../src/db/database.ts';
import { createScratchDatabase } from './test-server.ts';

/**
 * A test file's own migrated database, for repositories tested without a server: PGlite in memory,
 * or a fresh database on the PostgreSQL of TEST_DATABASE_URL; closed (and dropped) after the file.
 */
export function useOwnDatabase(): { readonly db: Db } {
  let database: DatabaseHandle | undefined;
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase(process.env.TEST_DATABASE_URL) : undefined;
    database = await openDatabase({ databaseUrl: scratch?.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });
  return {
    get db() {
      if (!database) throw new Error('the database opens before the tests');
      return database.db;
    },
  };
}
