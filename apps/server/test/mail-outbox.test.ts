import { usersPath } from '@users-admin/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createMailSender } from '../src/mail/mail-sender.ts';
import { actionsOrg, apiCaller, memberOf } from './support/actions-org.ts';
import { linkIn, startSmtpCatcher } from './support/smtp-catcher.ts';
import { freePort, startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

const quiet = { info: () => {}, warn: () => {} };

describe('the mail outbox', () => {
  let server: TestServer;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    // No SMTP_URL: the server keeps mail in the outbox, and the senders below are the tests' own.
    server = await startTestServer();
    call = apiCaller(server.baseUrl);
  });
  afterAll(() => server.close());

  /** A new organisation with `count` inactive users, each invited through the API. */
  async function invitedOrg(slug: string, count: number) {
    const { db } = server.database;
    const org = await actionsOrg(db, slug);
    const rows = Array.from({ length: count }, (_, i) => userRow(org.id, `Guest ${i}`, `guest${i}@${slug}.example`));
    await insertUsers(
      db,
      rows.map((row) => ({ ...row, status: 'inactive' })),
    );
    const admin = await (await memberOf(db, org.id, `admin@${slug}.example`, true)).signIn(server.baseUrl);
    const response = await call(admin, 'POST', `${usersPath(org.id)}/bulk`, {
      body: { data: { type: 'bulk-actions', attributes: { action: 'invite', ids: rows.map((row) => row.id) } } },
    });
    expect(response.status).toBe(200);
    return org;
  }
  const unsent = (orgId: string) =>
    server.database.db
      .selectFrom('mail_outbox')
      .select(['id', 'attempts', 'last_error', 'sent_at', 'text_body'])
      .where('org_id', '=', orgId)
      .execute();

  it('keeps mail through a mail server that is down, and delivers it once when it is back', async () => {
    const org = await invitedOrg('outage', 2);
    const port = await freePort();
    const sender = createMailSender(server.database.db, {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'test@outage.example',
      log: quiet,
      retryBaseSeconds: 1,
    });
    try {
      expect(await sender.deliverDue()).toBe(0);
      const failed = await unsent(org.id);
      expect(failed.map((row) => [row.attempts, row.sent_at])).toEqual([
        [1, null],
        [1, null],
      ]);
      expect(failed[0]?.last_error).toMatch(/ECONNREFUSED|connect/i);
      // Not yet due again: nothing is tried before the wait.
      expect(await sender.deliverDue()).toBe(0);
      expect((await unsent(org.id)).map((row) => row.attempts)).toEqual([1, 1]);

      const smtp = await startSmtpCatcher(port);
      try {
        await expect.poll(() => sender.deliverDue(), { interval: 200 }).toBe(2);
        expect(await sender.deliverDue()).toBe(0);
        expect(smtp.messages.map((mail) => mail.to[0]).sort()).toEqual([
          'guest0@outage.example',
          'guest1@outage.example',
        ]);
        expect(linkIn(smtp.messages[0])).toContain('/invitations/');
        const sent = await unsent(org.id);
        expect(sent.every((row) => row.sent_at !== null && row.text_body === '' && row.attempts === 2)).toBe(true);
      } finally {
        await smtp.close();
      }
    } finally {
      await sender.stop();
    }
  });

  it('never sends one mail twice from two senders at once', async () => {
    const org = await invitedOrg('twice', 30);
    const smtp = await startSmtpCatcher();
    const senders = [1, 2].map(() =>
      createMailSender(server.database.db, {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        from: 'test@twice.example',
        log: quiet,
        batchSize: 4,
      }),
    );
    try {
      let rounds = 0;
      while ((await unsent(org.id)).some((row) => row.sent_at === null) && rounds++ < 20) {
        const sent = await Promise.all(senders.map((sender) => sender.deliverDue()));
        expect(sent.every((n) => n >= 0)).toBe(true);
      }
      expect(smtp.messages).toHaveLength(30);
      expect(new Set(smtp.messages.map((mail) => mail.to[0])).size).toBe(30);
      expect((await unsent(org.id)).every((row) => row.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(senders.map((sender) => sender.stop()));
      await smtp.close();
    }
  });

  it('starts, wakes and stops a sender that delivers by itself', async () => {
    const org = await invitedOrg('looping', 3);
    const smtp = await startSmtpCatcher();
    const sender = createMailSender(server.database.db, {
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'test@looping.example',
      log: quiet,
      pollMs: 100,
    });
    sender.start();
    try {
      await expect.poll(async () => (await unsent(org.id)).filter((row) => row.sent_at !== null).length).toBe(3);
      expect(smtp.messages).toHaveLength(3);
    } finally {
      await sender.stop();
      await smtp.close();
    }
  });

  it('forgets mail sent days ago when its organisation has mail due again', async () => {
    const org = await invitedOrg('forget', 2);
    const { db } = server.database;
    const smtp = await startSmtpCatcher();
    const sender = createMailSender(db, {
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'test@forget.example',
      log: quiet,
    });
    try {
      expect(await sender.deliverDue()).toBe(2);
      const [first] = await unsent(org.id);
      await db
        .updateTable('mail_outbox')
        .set({ sent_at: sql<Date>`now() - interval '4 days'` })
        .where('org_id', '=', org.id)
        .where('id', '=', first?.id ?? '')
        .execute();
      const mail = { subject: 'Again', text_body: 'text', html_body: '<p>html</p>' };
      await db
        .insertInto('mail_outbox')
        .values({ org_id: org.id, id: uuidv7(), recipient: 'again@forget.example', ...mail })
        .execute();
      expect(await sender.deliverDue()).toBe(1);
      const kept = await unsent(org.id);
      expect(kept).toHaveLength(2);
      expect(kept.map((row) => row.id)).not.toContain(first?.id);
    } finally {
      await sender.stop();
      await smtp.close();
    }
  });
});
