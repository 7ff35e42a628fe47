import { sql } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
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
  /** The wait after a first failure, doubled after each one up to an hour. */
  retryBaseSeconds?: number;
}

type Settings = Required<MailSenderOptions> & { db: Db; transport: Transporter };

const RETRY_MAX_SECONDS = 3600;
const inSeconds = (value: number) => sql<Date>`now() + make_interval(secs => ${value})`;

// Names no organisation: which ones have mail due (each claim then names one).
const dueOrganisations = async ({ db }: Settings) =>
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

/** Takes due rows of one organisation out of every other sender's reach for the lease. */
const claim = ({ db, batchSize, leaseSeconds }: Settings, orgId: string) =>
  db
    .updateTable('mail_outbox')
    .set({ attempts: sql<number>`attempts + 1`, next_attempt_at: inSeconds(leaseSeconds) })
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

type Claimed = Awaited<ReturnType<typeof claim>>[number];

/** Sends one claimed mail: marked sent (its bodies, which hold the link, erased), or due again later. */
async function deliver(settings: Settings, row: Claimed): Promise<boolean> {
  const { db, transport, log } = settings;
  const mail = db.updateTable('mail_outbox').where('org_id', '=', row.org_id).where('id', '=', row.id);
  try {
    const { recipient: to, subject, text_body: text, html_body: html } = row;
    await transport.sendMail({ from: settings.from, to, subject, text, html });
  } catch (error) {
    const wait = Math.min(RETRY_MAX_SECONDS, settings.retryBaseSeconds * 2 ** (row.attempts - 1));
    const reason = error instanceof Error ? error.message : String(error);
    log.warn({ mail: row.id, attempts: row.attempts, retryIn: wait, reason }, 'mail not sent: retrying later');
    await mail.set({ next_attempt_at: inSeconds(wait), last_error: reason.slice(0, 500) }).execute();
    return false;
  }
  await mail.set({ sent_at: sql<Date>`now()`, text_body: '', html_body: '', last_error: null }).execute();
  log.info({ mail: row.id, attempts: row.attempts }, 'mail sent');
  return true;
}

/**
 * Delivers the mail outbox through SMTP (nodemailer), polling and when woken. A claim moves rows
 * out of reach for its lease (`FOR UPDATE SKIP LOCKED`), so several senders, one per server
 * instance, never take the same row; a failure is retried with a doubling wait. A crash between
 * sending and marking sent sends that mail again once the lease ends.
 */
export function createMailSender(db: Db, options: MailSenderOptions) {
  const settings: Settings = {
    pollMs: 5000,
    batchSize: 20,
    leaseSeconds: 300,
    retryBaseSeconds: 5,
    ...options,
    db,
    transport: nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, socketTimeout: 60_000 }),
  };
  const state = { timer: undefined as NodeJS.Timeout | undefined, running: undefined as Promise<unknown> | undefined };
  let woken = false;
  let stopped = true;

  /** Sends what is due now, once; answers how many were sent. */
  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (const orgId of await dueOrganisations(settings)) {
      for (const row of await claim(settings, orgId)) if (await deliver(settings, row)) sent += 1;
    }
    return sent;
  }
  const schedule = (ms: number) => {
    clearTimeout(state.timer);
    if (!stopped) state.timer = setTimeout(run, ms);
  };
  /** Rounds while woken meanwhile; a database that does not answer is tried again at the next poll. */
  async function run() {
    woken = state.running !== undefined;
    if (woken) return;
    do {
      woken = false;
      state.running = deliverDue().catch((error: unknown) => options.log.warn({ err: error }, 'mail outbox not read'));
      await state.running;
      state.running = undefined;
    } while (woken && !stopped);
    schedule(settings.pollMs);
  }

  return {
    deliverDue,
    /** Mail was just written: send it now rather than at the next poll. */
    wake: () => schedule(0),
    start: () => {
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(state.timer);
      await state.running;
      settings.transport.close();
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
