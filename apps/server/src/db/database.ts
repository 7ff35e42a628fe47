import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type Compilable, Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations, vacuumUsersAfter } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** The SQL texts of the statements `planOnce` registered, and the name each is prepared under. */
const plannedOnce = new Map<string, string>();

/**
 * Registers a statement (built with any values: only its SQL text counts) whose best plan never
 * depends on its values, such as a lookup by primary key. On PostgreSQL it is then a named
 * prepared statement on each connection, which PostgreSQL plans once (a generic plan, after its
 * first five runs) instead of at every run: the session lookup of every API request planned in
 * 0.23 ms and ran in 0.05. Not for the users list's statements: a generic plan cannot see an
 * organisation's size or a page's LIMIT, and takes a sequential scan of every user for a first page.
 */
export function planOnce(statement: Compilable): void {
  const { sql: text } = statement.compile();
  if (!plannedOnce.has(text)) plannedOnce.set(text, `planned_once_${plannedOnce.size + 1}`);
}

/** node-postgres' client, which sends the statements `planOnce` registered as named ones. */
class PlanningOnceClient extends pg.Client {}
const plainQuery = pg.Client.prototype.query as (this: pg.Client, config: unknown, ...rest: unknown[]) => unknown;
// Kysely calls query(text, values): a registered text is sent as { name, text } with those values.
PlanningOnceClient.prototype.query = function query(this: pg.Client, config: unknown, ...rest: unknown[]) {
  const name = typeof config === 'string' ? plannedOnce.get(config) : undefined;
  return plainQuery.call(this, name === undefined ? config : { name, text: config }, ...rest);
} as pg.Client['query'];

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /**
   * PostgreSQL only: the longest a statement may run (`statement_timeout`, and the same bound plus
   * half a second on the client for a server that stopped answering). Unset: no limit (seeding).
   */
  queryTimeoutMs?: number | undefined;
  /** Where the pool reports a connection it lost while idle (PostgreSQL restarted or stopped). */
  onPoolError?: ((error: Error) => void) | undefined;
}

/** How long to wait for a new PostgreSQL connection before answering that the database is unavailable. */
export const CONNECT_TIMEOUT_MS = 2000;

export interface DatabaseHandle {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Opens the database (PGlite or PostgreSQL, one query layer over both) and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Migrations (an index build on a large table) may take longer than any request may.
    const migrationPool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
    // As the pool's below: a connection PostgreSQL closes while it ends must not end the process.
    migrationPool.on('error', (error) => options.onPoolError?.(error));
    const migrator = new Kysely<Database>({ dialect: new PostgresDialect({ pool: migrationPool }) });
    try {
      await migrate(migrator);
    } finally {
      await migrator.destroy();
    }
    const timeout = options.queryTimeoutMs;
    // A page of 25 never gains from parallel workers, and their start-up costs milliseconds. Nor
    // does any request gain from JIT compilation, which PostgreSQL starts for a statement it believes
    // costly: counting a search in a thousand page buckets spent 285 of its 312 ms compiling.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      Client: PlanningOnceClient,
      options: '-c max_parallel_workers_per_gather=0 -c jit=off',
      // PostgreSQL stopped or unreachable: fail within bounded time (answered 503), never hang.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      ...(timeout ? { statement_timeout: timeout, query_timeout: timeout + 500 } : {}),
    });
    // An idle connection that PostgreSQL closes (stop, restart, failover) is reported here; without
    // a listener the pool's 'error' event would end the process. The pool opens new ones on demand.
    pool.on('error', (error) => options.onPoolError?.(error));
    // So is one closed while it is checked out: its statement fails as any other, but the pool listens
    // only to idle connections, and the connection's own 'error' event, with no listener, ended the
    // process (seen when backends were terminated in the middle of a deep page's bucket counts).
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  if (!options.dataDir.startsWith('memory://')) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create(options.dataDir, { extensions: { pg_trgm } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  await migrate(db);
  await analyzeIfNeverAnalyzed(db);
  return { db, engine: 'pglite', close: () => db.destroy() };
}

/**
 * PGlite runs no autovacuum, so nothing else gathers planner statistics or keeps the visibility map
 * that index-only scans rely on. At start-up, a data folder is analysed when a table was never
 * analysed or users exist without column statistics (written before the seeders analysed, or by
 * other tools), and the users table is vacuumed when its visibility map was last seen covering less
 * than half of it (a table rewritten by a migration that was interrupted before its vacuum).
 * `relallvisible` is only updated by vacuum and analyse: the map worn down by updates since is not
 * seen.
 */
async function analyzeIfNeverAnalyzed(db: Db): Promise<void> {
  const { rows } = await sql<{ never: boolean; unvacuumed: boolean }>`
    select exists (
      select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.reltuples < 0
    ) or (
      exists (select 1 from users) and not exists (select 1 from pg_stats where tablename = 'users')
    ) as never,
    exists (
      -- The table itself, or its parts (migration 0019), which hold its rows.
      select 1 from pg_class c
      where (c.oid = 'users'::regclass or c.oid in (select inhrelid from pg_inherits where inhparent = 'users'::regclass))
        and c.relpages >= 64 and c.relallvisible < c.relpages / 2
    ) as unvacuumed`.execute(db);
  if (rows[0]?.unvacuumed) await sql`vacuum analyze users`.execute(db);
  if (rows[0]?.never) await sql`analyze`.execute(db);
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Error') throw new Error(`Migration ${result.migrationName} failed`, { cause: error });
  }
  if (error) throw error;
  if (results?.some((result) => result.status === 'Success' && vacuumUsersAfter.has(result.migrationName))) {
    await sql`vacuum analyze users`.execute(db);
  }
}

/**
 * Whether the database's pg_trgm takes the letters of every script for word characters: not when
 * its character type is C (`LC_CTYPE`), where it takes ASCII's only.
 */
export async function trigramsTakeEveryScript(db: Db): Promise<boolean> {
  const { rows } = await sql<{ unicode: boolean }>`select show_trgm('жжж') <> '{}' as unicode`.execute(db);
  return rows[0]?.unicode === true;
}

/**
 * What an operator is told at start-up (and by the seeder) when the trigram index cannot serve
 * searches in scripts other than ASCII's: each such search's first count walks the organisation.
 */
export async function characterTypeWarning(db: Db): Promise<string | undefined> {
  if (await trigramsTakeEveryScript(db)) return undefined;
  const { rows } = await sql<{ ctype: string }>`
    select datctype as ctype from pg_database where datname = current_database()`.execute(db);
  return (
    `The database's character type is ${rows[0]?.ctype ?? 'C'}: its trigram index takes only ASCII letters and digits, ` +
    'so a search in another script (Cyrillic, Greek, Arabic, Indic, CJK) is counted by walking the whole organisation ' +
    '(0.1–0.2 s at 1,000,000 users). Create the database with a UTF-8 character type: ' +
    'createdb --template=template0 --locale=C.UTF-8 <name> (README, Database).'
  );
}
