import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database.ts';

export interface MailSenderOptions {
  smtpUrl: string;
  from: string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** How often the outbox is read when nothing wakes the sender. */
  pollMs?: number;
  /** Rows one claim takes. */
  batchSize?: number;
  /** The wait after a first failure, doubled after each one up to an hour. */
  retryBaseSeconds?: number;
}

const RETRY_MAX_SECONDS = 3600;
/** How long a claimed row is left alone by other senders: longer than a send may take. */
const LEASE_SECONDS = 300;
/** How long sent rows (bodies erased) are kept, for a look at what left. */
const KEEP_SENT_SECONDS = 3 * 86_400;
const inSeconds = (value: number) => sql<Date>`now() + make_interval(secs => ${value})`;

/** Takes due rows of one organisation out of every other sender's reach for the lease. */
const claim = (db: Db, orgId: string, batchSize: number) =>
  db
    .updateTable('mail_outbox')
    .set({ attempts: sql<number>`attempts + 1`, next_attempt_at: inSeconds(LEASE_SECONDS) })
    .where('org_id', '=', orgId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('org_id', '=', orgId)
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(batchSize)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['org_id', 'id', 'recipient', 'subject', 'text_body', 'html_body', 'attempts'])
    .execute();

/** Runs `work` every `pollMs` and when woken: a wake during a round asks for one more right after it. */
function rounds(work: () => Promise<unknown>, pollMs: number) {
  let stopped = true;
  let idle = new AbortController();
  let loop = Promise.resolve();
  return {
    /** Mail was just written: send it now rather than at the next poll. */
    wake: () => idle.abort(),
    start() {
      stopped = false;
      loop = (async () => {
        while (!stopped) {
          await work();
          await sleep(pollMs, undefined, { signal: idle.signal }).catch(() => (idle = new AbortController()));
        }
      })();
    },
    async stop() {
      stopped = true;
      idle.abort();
      await loop;
    },
  };
}

/**
 * Delivers the outbox over SMTP. A claim leases rows (`FOR UPDATE SKIP LOCKED`): senders never share one;
 * failures wait longer each time; a crash between sending and marking sent sends again after the lease.
 */
export function createMailSender(db: Db, options: MailSenderOptions) {
  const { from, log, pollMs = 5000, batchSize = 20, retryBaseSeconds = 5 } = options;
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    socketTimeout: 60_000,
  });

  /** Sends one claimed mail: marked sent (its bodies, which hold the link, erased), or due again later. */
  async function deliver(row: Awaited<ReturnType<typeof claim>>[number]): Promise<boolean> {
    const mail = db.updateTable('mail_outbox').where('org_id', '=', row.org_id).where('id', '=', row.id);
    try {
      const { recipient: to, subject, text_body: text, html_body: html } = row;
      await transport.sendMail({ from, to, subject, text, html });
    } catch (error) {
      const wait = Math.min(RETRY_MAX_SECONDS, retryBaseSeconds * 2 ** (row.attempts - 1));
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ mail: row.id, attempts: row.attempts, retryIn: wait, reason }, 'mail not sent: retrying later');
      await mail.set({ next_attempt_at: inSeconds(wait), last_error: reason.slice(0, 500) }).execute();
      return false;
    }
    await mail.set({ sent_at: sql<Date>`now()`, text_body: '', html_body: '', last_error: null }).execute();
    log.info({ mail: row.id, attempts: row.attempts }, 'mail sent');
    return true;
  }

  /** Sends what is due now, once, and forgets the organisation's mail sent long ago; answers how many were sent. */
  async function deliverDue(): Promise<number> {
    // Names no organisation: which ones have mail due (each claim then names one).
    const due = await db
      .selectFrom('mail_outbox')
      .select('org_id')
      .distinct()
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .limit(100)
      .execute();
    let sent = 0;
    for (const { org_id: orgId } of due) {
      for (const row of await claim(db, orgId, batchSize)) if (await deliver(row)) sent += 1;
      const old = sql<Date>`now() - make_interval(secs => ${KEEP_SENT_SECONDS})`;
      await db.deleteFrom('mail_outbox').where('org_id', '=', orgId).where('sent_at', '<', old).execute();
    }
    return sent;
  }

  // A database that does not answer is tried again at the next poll.
  const loop = rounds(
    () => deliverDue().catch((error: unknown) => log.warn({ err: error }, 'mail outbox not read')),
    pollMs,
  );
  return {
    deliverDue,
    ...loop,
    async stop() {
      await loop.stop();
      transport.close();
    },
  };
}
