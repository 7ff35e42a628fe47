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
  /** How long a claimed row is left alone by other senders: longer than a send may take. */
  leaseSeconds?: number;
  /** The wait after a first failure, doubled after each one up to `retryMaxSeconds`. */
  retryBaseSeconds?: number;
  retryMaxSeconds?: number;
}

interface Claimed {
  org_id: string;
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

const seconds = (value: number) => sql<Date>`now() + make_interval(secs => ${value})`;

/**
 * Delivers the mail outbox through SMTP (nodemailer). Each claim takes due rows of one organisation
 * with `FOR UPDATE SKIP LOCKED` and moves them out of reach for the lease, so several senders (one
 * per server instance) never take the same row; a failure is retried later, with a doubling wait.
 * A crash between sending and marking sent sends that mail again once the lease ends.
 */
export function createMailSender(db: Db, options: MailSenderOptions) {
  const { pollMs = 5000, batchSize = 20, leaseSeconds = 300, retryBaseSeconds = 5, retryMaxSeconds = 3600 } = options;
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let woken = false;
  let stopped = true;

  // Names no organisation: which ones have mail due (each claim then names one).
  const dueOrganisations = async () =>
    (
      await db
        .selectFrom('mail_outbox')
        .select('org_id')
        .distinct()
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .limit(100)
        .execute()
    ).map((row) => row.org_id);

  const claim = (orgId: string): Promise<Claimed[]> =>
    db
      .updateTable('mail_outbox')
      .set({ attempts: sql<number>`attempts + 1`, next_attempt_at: seconds(leaseSeconds) })
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

  const deliver = async (row: Claimed): Promise<boolean> => {
    const where = { org_id: row.org_id, id: row.id };
    try {
      const { recipient: to, subject, text_body: text, html_body: html } = row;
      await transport.sendMail({ from: options.from, to, subject, text, html });
    } catch (error) {
      const wait = Math.min(retryMaxSeconds, retryBaseSeconds * 2 ** (row.attempts - 1));
      const reason = error instanceof Error ? error.message : String(error);
      options.log.warn(
        { mail: row.id, attempts: row.attempts, retryIn: wait, reason },
        'mail not sent: retrying later',
      );
      await db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: seconds(wait), last_error: reason.slice(0, 500) })
        .where('org_id', '=', where.org_id)
        .where('id', '=', where.id)
        .execute();
      return false;
    }
    // Sent: the bodies, which hold the link, are not kept.
    await db
      .updateTable('mail_outbox')
      .set({ sent_at: sql<Date>`now()`, text_body: '', html_body: '', last_error: null })
      .where('org_id', '=', where.org_id)
      .where('id', '=', where.id)
      .execute();
    options.log.info({ mail: row.id, attempts: row.attempts }, 'mail sent');
    return true;
  };

  /** Sends what is due now, once; answers how many were sent. */
  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (const orgId of await dueOrganisations()) {
      for (const row of await claim(orgId)) if (await deliver(row)) sent += 1;
    }
    return sent;
  }

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void run(), ms);
  };

  /** Rounds until nothing new is due; an unreachable database is logged and tried again at the next poll. */
  async function run(): Promise<void> {
    if (running) {
      woken = true;
      return;
    }
    do {
      woken = false;
      running = deliverDue().catch((error: unknown) => {
        options.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'mail outbox not read');
        return 0;
      });
      await running;
      running = undefined;
    } while (woken && !stopped);
    schedule(pollMs);
  }

  return {
    deliverDue,
    /** Mail was just written: send it now rather than at the next poll. */
    wake: () => schedule(0),
    start() {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
