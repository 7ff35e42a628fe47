import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
}

export interface DatabaseHandle {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Opens the database (PGlite or PostgreSQL, one query layer over both) and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let db: Db;
  let engine: DatabaseHandle['engine'];
  if (options.databaseUrl) {
    // A page of 25 never gains from parallel workers, and their start-up costs milliseconds.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      options: '-c max_parallel_workers_per_gather=0',
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    engine = 'postgres';
  } else {
    if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
    const pglite = await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    engine = 'pglite';
  }
  await migrate(db);
  return { db, engine, close: () => db.destroy() };
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Error') throw new Error(`Migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}
