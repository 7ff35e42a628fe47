import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { type BatchOptions, claimJob, releaseJob, runBatch } from './job-batches.ts';

/** How often an idle worker looks for a job. */
const POLL_MS = 1000;
const SAID = { more: 'job given back', finished: 'job finished', lost: 'job cancelled or taken over' } as const;

export type JobWorker = ReturnType<typeof startJobWorker>;

/** Runs every organisation's jobs, one at a time, batch by batch, under a lease each batch extends. */
export function startJobWorker(db: Db, { log, ...batch }: BatchOptions & { log: FastifyBaseLogger }) {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopping = false;
  const idle = new AbortController();

  const loop = (async () => {
    while (!stopping) {
      try {
        const job = await claimJob(db, owner, batch.leaseSeconds);
        if (job) {
          const context = { job: job.id, org: job.org_id, action: job.action, owner };
          log.info({ ...context, processed: job.processed, total: job.total }, 'job claimed');
          let step = await runBatch(db, job, owner, batch);
          while (step === 'more' && !stopping) {
            // PGlite answers in microtasks: without a turn of the event loop, no request would be read until the job ends.
            await new Promise((resolve) => setImmediate(resolve));
            step = await runBatch(db, job, owner, batch);
          }
          if (step === 'more') await releaseJob(db, job, owner);
          log.info({ ...context, step }, SAID[step]);
          continue;
        }
      } catch (error) {
        // The job stays leased until its lease runs out, then is tried again (MAX_ATTEMPTS times).
        log.error({ err: error, owner }, 'job worker: a batch failed');
      }
      if (!stopping) await sleep(POLL_MS, undefined, { signal: idle.signal }).catch(() => {});
    }
  })();

  return {
    /** Who holds the jobs this worker runs (host, process, a random part). */
    owner,
    /** Finishes the batch in flight, gives its job back, and stops. */
    async stop() {
      stopping = true;
      idle.abort();
      await loop;
    },
  };
}
