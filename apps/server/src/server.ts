import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './db/seed.ts';
import { repairUserCounts } from './db/user-counts.ts';
import { startJobWorker } from './jobs/job-worker.ts';

/** How long SIGTERM waits for the requests in flight before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Boots the server: configuration, database, demo data, then listen; shuts down on signals. */
async function main() {
  const config = loadConfig();
  let reportPoolError = (error: Error) => console.error(`database connection lost: ${error.message}`);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
    onPoolError: (error) => reportPoolError(error),
  });
  if (config.seedDemo && (await seedDemoIfEmpty(database.db))) {
    console.log('Seeded the demo organisations Acme and Globex.');
  }
  const app = await buildApp(config, database);
  reportPoolError = (error) => app.log.warn({ database: { message: error.message } }, 'database connection lost');
  const repaired = await repairUserCounts(database.db);
  if (repaired.length > 0) {
    app.log.warn(
      { organisations: repaired },
      `user counts differed from the users in ${repaired.length} organisation(s): counted again`,
    );
  }
  await app.listen({ host: config.host, port: config.port });
  const worker = startJobWorker(database.db, { ...config.jobs, log: app.log });

  const where = database.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  console.log(`\nUsers admin is ready at ${config.publicUrl}  (${where})`);
  if (config.seedDemo && !config.externalIssuer) {
    console.log('Demo sign-in:');
    for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email}  password: ${account.password}`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing the requests in flight, refusing new ones');
    // A request that never ends must not keep the process from stopping.
    setTimeout(() => {
      app.log.error(`requests still in flight after ${SHUTDOWN_GRACE_MS} ms: exiting`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    try {
      // Stops listening, answers 503 to requests arriving on kept-alive connections, waits for the
      // ones in flight, then closes the idle connections.
      // The job worker finishes its batch in flight and gives its job back to whichever instance is next.
      await Promise.all([app.close(), worker.stop()]);
      // PGlite: a clean shutdown of the embedded PostgreSQL, so the next start needs no recovery.
      await database.close();
      app.log.info('database closed; exiting');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
