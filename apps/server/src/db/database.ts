import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Compilable, Kysely, type LogEvent, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { upgradeLegacySchema } from './legacy-upgrade.ts';
import { migrations } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { copyTemplate, saveTemplate } from './pglite-template.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** The SQL texts of the statements `planOnce` registered, and the name each is prepared under. */
const plannedOnce = new Map<string, string>();

/**
 * Registers a statement (built with any values: only its SQL text counts) whose best plan never
 * depends on its values, such as a lookup by primary key. On PostgreSQL it is then a named
 * prepared statement on each connection, planned once instead of at every run, which costs more
 * than running it. Not for the users list: its best plan depends on the organisation and the page.
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
  /** Told the SQL text of every statement run (tests that check how statements are keyed). */
  onStatement?: ((sql: string) => void) | undefined;
  /** PGlite only: the data folder to start from, as `dumpDataDir()` made it (tests start from a seeded copy). */
  loadDataDir?: Blob | undefined;
  /** Told each step of the opening as it starts (the start-up's stages). */
  onStage?: ((name: string) => void) | undefined;
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
    options.onStage?.('migrating the database');
    try {
      await migrate(migrator);
    } finally {
      await migrator.destroy();
    }
    const timeout = options.queryTimeoutMs;
    // No request gains from JIT compilation, which PostgreSQL starts for a statement it believes costly
    // and which then costs more than the statement's own work; nor from parallel workers, whose start
    // costs more than a page's walk and takes the cores other requests wait for.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      Client: PlanningOnceClient,
      options: '-c jit=off -c max_parallel_workers_per_gather=0',
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
    // process (seen when backends were terminated in the middle of a statement).
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...statementLog(options) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  return openPGlite(options);
}

/**
 * Opens PGlite. A new data folder starts from the template of a migrated database when one was kept
 * (`pglite-template.ts`), and is kept as that template when none was.
 */
async function openPGlite(options: DatabaseOptions): Promise<DatabaseHandle> {
  const onDisk = !options.dataDir.startsWith('memory://');
  if (onDisk) mkdirSync(options.dataDir, { recursive: true });
  const isNew = onDisk && !options.loadDataDir && !existsSync(path.join(options.dataDir, 'PG_VERSION'));
  const fromTemplate = isNew && copyTemplate(options.dataDir);
  options.onStage?.(isNew && !fromTemplate ? 'creating the embedded database' : 'opening the embedded database');
  const pglite = await PGlite.create(options.dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...statementLog(options) });
  options.onStage?.('migrating the database');
  await migrate(db);
  await analyzeIfNeverAnalyzed(db);
  if (isNew && !fromTemplate) await saveTemplate(pglite);
  return { db, engine: 'pglite', close: () => db.destroy() };
}

function statementLog({ onStatement }: DatabaseOptions) {
  return onStatement ? { log: (event: LogEvent) => onStatement(event.query.sql) } : {};
}

/**
 * PGlite runs no autovacuum, so nothing else gathers planner statistics or keeps the visibility map
 * that index-only scans rely on. At start-up, a data folder is analysed when a table holding rows was
 * never analysed (an empty one still reads as never analysed after it, which analysed every data
 * folder at every start) or users exist without column statistics, and the users table is vacuumed
 * when its visibility map was last seen covering less than half of it (a bulk load stopped before its vacuum).
 */
async function analyzeIfNeverAnalyzed(db: Db): Promise<void> {
  const { rows } = await sql<{ never: boolean; unvacuumed: boolean }>`
    select exists (
      select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and c.reltuples < 0 and pg_relation_size(c.oid) > 0
    ) or (
      exists (select 1 from users) and not exists (select 1 from pg_stats where tablename = 'users')
    ) as never,
    exists (
      select 1 from pg_class c
      where c.oid in (select inhrelid from pg_inherits where inhparent = 'users'::regclass)
        and c.relpages >= 64 and c.relallvisible < c.relpages / 2
    ) as unvacuumed`.execute(db);
  if (rows[0]?.unvacuumed) await sql`vacuum analyze users`.execute(db);
  if (rows[0]?.never) await sql`analyze`.execute(db);
}

/**
 * Brings the schema up to date: a database of the migrations before the baseline first (`legacy-upgrade.ts`).
 * One already up to date is left alone: the migrator's own check reads the whole catalog, long on PGlite.
 */
export async function migrate(db: Db): Promise<void> {
  if (await appliedEveryMigration(db)) return;
  await upgradeLegacySchema(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Error') throw new Error(`Migration ${result.migrationName} failed`, { cause: error });
  }
  if (error) throw error;
}

/** Whether the database records exactly this code's migrations as applied (and has the migrator's lock table). */
export async function appliedEveryMigration(db: Db): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null
    and to_regclass('kysely_migration_lock') is not null as found`.execute(db);
  if (!rows[0]?.found) return false;
  const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  const expected = Object.keys(migrations).sort();
  return applied.rows.length === expected.length && applied.rows.every((row, i) => row.name === expected[i]);
}
