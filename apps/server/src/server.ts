import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/database.ts';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './db/seed.ts';
import { repairUserCounts } from './db/user-counts.ts';
import { type JobWorker, startJobWorker } from './jobs/job-worker.ts';
import { createInvitations } from './repositories/invitations-repository.ts';
import { followStartUp, type StartUp } from './start-up.ts';

/** How long SIGTERM waits for the requests in flight before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Boots the server: configuration, database, demo data, then listen; shuts down on signals. */
async function main() {
  const config = loadConfig();
  const startUp = followStartUp(config.startUpTimeoutSeconds);
  const { app, database } = await start(config, startUp);
  const stages = startUp.done();
  app.log.info({ startUp: stages }, 'started');
  const worker = startJobWorker(database.db, {
    ...config.jobs,
    invitations: createInvitations(config, app.log),
    log: app.log,
  });

  const where = database.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  console.log(`\nUsers admin is ready at ${config.publicUrl}  (${where})`);
  if (config.seedDemo && !config.externalIssuer) {
    console.log('Demo sign-in:');
    for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email}  password: ${account.password}`);
  }
  stopOnSignals(app, database, worker);
}

/** Every stage of a start up to listening, each told to `startUp`. */
async function start(config: Config, startUp: StartUp) {
  let reportPoolError = (error: Error) => console.error(`database connection lost: ${error.message}`);
  startUp.stage('opening the database');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    queryTimeoutMs: config.databaseQueryTimeoutMs,
    onPoolError: (error) => reportPoolError(error),
    onStage: startUp.stage,
  });
  startUp.stage('seeding the demo data');
  if (config.seedDemo && (await seedDemoIfEmpty(database.db))) {
    console.log('Seeded the demo organisations Acme and Globex.');
  }
  const app = await buildApp(config, database, startUp.stage);
  reportPoolError = (error) => app.log.warn({ database: { message: error.message } }, 'database connection lost');
  startUp.stage('checking the user counts');
  const repaired = await repairUserCounts(database.db);
  if (repaired.length > 0) {
    app.log.warn(
      { organisations: repaired },
      `user counts differed from the users in ${repaired.length} organisation(s): counted again`,
    );
  }
  startUp.stage('starting to listen');
  await app.listen({ host: config.host, port: config.port });
  return { app, database };
}

/** SIGINT, SIGTERM: finish the requests and the job batch in flight, close the database, exit. */
function stopOnSignals(app: FastifyInstance, database: DatabaseHandle, worker: JobWorker) {
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
