import { errorDocumentSchema, SESSION_PATH, userDocumentSchema, usersPath } from '@users-admin/contract';
import {
  auditEventListDocumentSchema,
  auditEventsPath,
  bulkResultDocumentSchema,
  invitationDocumentSchema,
  invitationPath,
} from '@users-admin/contract/user-actions';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOrg, apiCaller, expectExactCounts, memberOf } from './support/actions-org.ts';
import { followJob, postJob } from './support/jobs.ts';
import { CookieJar, signIn } from './support/sign-in.ts';
import { linkIn, startSmtpCatcher } from './support/smtp-catcher.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('invitations by e-mail, caught by a real SMTP server', () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let call: ReturnType<typeof apiCaller>;
  let org: Awaited<ReturnType<typeof actionsOrg>>;
  let admin: CookieJar;

  const invite = (userId: string, jar: CookieJar | undefined = admin) =>
    call(jar, 'POST', invitationPath(org.id, userId));
  const userOf = async (id: string) =>
    userDocumentSchema.parse(await (await call(admin, 'GET', `${usersPath(org.id)}/${id}`)).json()).data.attributes;
  const mailTo = async (address: string, count = 1) => {
    await expect.poll(() => smtp.to(address).length).toBe(count);
    return smtp.to(address).at(-1);
  };
  /** Makes the user's invitations older than the minute between two, as if time had passed. */
  const age = (userId: string) =>
    sql`update invitations set created_at = created_at - interval '2 minutes'
      where org_id = ${org.id} and user_id = ${userId}`.execute(server.database.db);

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    server = await startTestServer({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Users admin <no-reply@test.example>',
    });
    call = apiCaller(server.baseUrl);
    org = await actionsOrg(server.database.db, 'Inviting');
    admin = await (await memberOf(server.database.db, org.id, 'ada@inviting.example', true)).signIn(server.baseUrl);
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('sends the link, which lets the invitee choose a password, and signs them in as an active user', async () => {
    const email = 'inactive@Inviting.example';
    const response = await invite(org.users.inactive ?? '');
    expect(response.status).toBe(201);
    const { data } = invitationDocumentSchema.parse(await response.json());
    expect(data.attributes).toMatchObject({ user_id: org.users.inactive, email });
    const week = Date.parse(data.attributes.expires_at) - Date.now();
    expect(week).toBeGreaterThan(604_800_000 - 60_000);
    expect(week).toBeLessThanOrEqual(604_800_000);
    expect((await userOf(org.users.inactive ?? '')).status).toBe('pending');

    const mail = await mailTo(email);
    expect(mail?.raw).toContain('Subject: Invitation to join Inviting');
    expect(mail?.raw).toContain('ada Member has invited you to join the organisation Inviting.');
    expect(mail?.raw).toContain('Content-Type: text/html');
    const link = linkIn(mail);
    expect(link.startsWith(`${server.baseUrl}/invitations/`)).toBe(true);

    const invitee = new CookieJar();
    const page = await (await invitee.follow(link)).text();
    expect(page).toContain('Choose a password to sign in to Inviting as inactive@Inviting.example.');
    const action = new URL(/action="([^"]+\/invitation)"/.exec(page)?.[1] ?? '', server.baseUrl).href;
    const mismatch = await invitee.follow(action, form({ password: 'long enough', confirm: 'not the same' }));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('The two passwords are not the same.');
    expect((await invitee.follow(action, form({ password: 'short', confirm: 'short' }))).status).toBe(400);

    await invitee.follow(action, form({ password: 'correct horse', confirm: 'correct horse' }));
    const session = await fetch(`${server.baseUrl}${SESSION_PATH}`, { headers: { cookie: invitee.header() } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ sub: org.users.inactive, org_id: org.id });
    expect((await userOf(org.users.inactive ?? '')).status).toBe('active');
    await expectExactCounts(server.database.db, call, admin, org.id);

    const events = await call(admin, 'GET', `${auditEventsPath(org.id)}?filter[user_id]=${org.users.inactive}`);
    const actions = auditEventListDocumentSchema.parse(await events.json()).data.map((event) => event.attributes);
    expect(actions.map((event) => [event.action, event.actor_id])).toEqual([
      ['accept_invitation', org.users.inactive],
      ['invite', expect.any(String)],
    ]);

    const again = await signIn(server.baseUrl, email, 'correct horse');
    const signedIn = await fetch(`${server.baseUrl}${SESSION_PATH}`, { headers: { cookie: again.jar.header() } });
    expect(await signedIn.json()).toMatchObject({ sub: org.users.inactive });
    // Single use: the link now says it was used.
    const used = await new CookieJar().follow(link);
    expect(used.status).toBe(410);
    expect(await used.text()).toContain('This invitation has been used');
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('answers 429 with Retry-After within a minute, then a resend replaces the link', async () => {
    const pending = org.users.pending ?? '';
    expect((await invite(pending)).status).toBe(201);
    const first = linkIn(await mailTo('pending@Inviting.example'));
    const tooSoon = await invite(pending);
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(errorDocumentSchema.parse(await tooSoon.json()).errors[0]?.code).toBe('recently_invited');

    await age(pending);
    // Two at once: one invitation, one 429.
    const statuses = (await Promise.all([invite(pending), invite(pending)])).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 429]);
    const second = linkIn(await mailTo('pending@Inviting.example', 2));
    expect(second).not.toBe(first);
    const replaced = await new CookieJar().follow(first);
    expect(replaced.status).toBe(410);
    expect(await replaced.text()).toContain('This invitation was replaced');
    const working = await fetch(second, { redirect: 'manual' });
    expect(working.status).toBe(303);
    expect(working.headers.get('location')).toContain('/auth/start?prompt=login');
  });

  it('shows an expired or unknown link as such', async () => {
    const pending = org.users.pending ?? '';
    await age(pending);
    expect((await invite(pending)).status).toBe(201);
    const link = linkIn(await mailTo('pending@Inviting.example', 3));
    await sql`update invitations set expires_at = now() - interval '1 second'
      where org_id = ${org.id} and user_id = ${pending}`.execute(server.database.db);
    const expired = await fetch(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This invitation has expired');
    const token = link.slice(-64);
    for (const other of [`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'nonsense', 'A'.repeat(64)]) {
      const unknown = await fetch(`${server.baseUrl}/invitations/${other}`, { headers: { 'accept-language': 'de' } });
      expect(unknown.status).toBe(410);
      expect(await unknown.text()).toContain('Diese Einladung ist ungültig');
    }
  });

  it('refuses third-party and non-invitable users, unknown ids and non-admins', async () => {
    const code = async (response: Response) => errorDocumentSchema.parse(await response.json()).errors[0]?.code;
    const external = await invite(org.users.external ?? '');
    expect([external.status, await code(external)]).toEqual([409, 'third_party']);
    const active = await invite(org.users.active ?? '');
    expect([active.status, await code(active)]).toEqual([409, 'not_invitable']);
    const disabled = await invite(org.users.disabled ?? '');
    expect([disabled.status, await code(disabled)]).toEqual([409, 'not_invitable']);
    expect((await invite('0190a000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await invite('not-a-uuid')).status).toBe(404);
    const user = await memberOf(server.database.db, org.id, 'plain@inviting.example', false);
    expect((await invite(org.users.inactive ?? '', await user.signIn(server.baseUrl))).status).toBe(403);
    expect((await invite(org.users.inactive ?? '', new CookieJar())).status).toBe(401);
  });

  it('invites in bulk by ids, skipping with reasons, and once a minute', async () => {
    const { db } = server.database;
    const fresh = await actionsOrg(db, 'Bulking');
    const bulkAdmin = await (await memberOf(db, fresh.id, 'bo@bulking.example', true)).signIn(server.baseUrl);
    const { inactive, pending, external, active, disabled } = fresh.users;
    const ids = [inactive, pending, external, active, disabled, '0190a000-0000-7000-8000-000000000000'];
    const bulk = () =>
      call(bulkAdmin, 'POST', `${usersPath(fresh.id)}/bulk`, {
        body: { data: { type: 'bulk-actions', attributes: { action: 'invite', ids } } },
      });
    const reasons = async (response: Response) => {
      expect(response.status).toBe(200);
      const { results } = bulkResultDocumentSchema.parse(await response.json()).data.attributes;
      return results.map((result) => result.reason ?? result.result);
    };
    expect(await reasons(await bulk())).toEqual([
      'done',
      'done',
      'third_party',
      'not_invitable',
      'not_invitable',
      'not_found',
    ]);
    await mailTo('inactive@Bulking.example');
    await mailTo('pending@Bulking.example');
    expect(await reasons(await bulk())).toEqual([
      'recently_invited',
      'recently_invited',
      'third_party',
      'not_invitable',
      'not_invitable',
      'not_found',
    ]);
    await expectExactCounts(db, call, bulkAdmin, fresh.id);
  });

  it('invites every matching user as a job: each invitable one once, with a mail each', async () => {
    const { db } = server.database;
    const crowd = await actionsOrg(db, 'Crowding');
    const boss = await (await memberOf(db, crowd.id, 'cy@crowding.example', true)).signIn(server.baseUrl);
    const { location } = await postJob(call, boss, crowd.id, { action: 'invite', filter: '' });
    const seen = await followJob(call, boss, location, (job) => job.status === 'done');
    // The inactive and the pending user are invited; the others are skipped with their reasons.
    expect(seen.at(-1)?.done).toBe(2);
    expect(Object.keys(seen.at(-1)?.skipped ?? {}).sort()).toEqual(['not_invitable', 'third_party']);
    await mailTo('inactive@Crowding.example');
    await mailTo('pending@Crowding.example');
    const invited = await call(boss, 'GET', `${usersPath(crowd.id)}/${crowd.users.inactive}`);
    expect(userDocumentSchema.parse(await invited.json()).data.attributes.status).toBe('pending');
    await expectExactCounts(db, call, boss, crowd.id);
  });

  it('writes the mail in the invitee’s language, else the organisation’s', async () => {
    const { db } = server.database;
    const fresh = await actionsOrg(db, 'Sprachen');
    await db.updateTable('organizations').set({ locale: 'fr' }).where('id', '=', fresh.id).execute();
    const boss = await memberOf(db, fresh.id, 'boss@sprachen.example', true);
    const invitee = await memberOf(db, fresh.id, 'de@sprachen.example', false);
    await db
      .updateTable('users')
      .set({ status: 'inactive' })
      .where('org_id', '=', fresh.id)
      .where('id', '=', invitee.id)
      .execute();
    await db.updateTable('accounts').set({ locale: 'de' }).where('email', '=', 'de@sprachen.example').execute();
    const jar = await boss.signIn(server.baseUrl);
    for (const id of [fresh.users.inactive, invitee.id]) {
      expect((await call(jar, 'POST', invitationPath(fresh.id, id ?? ''))).status).toBe(201);
    }
    const subjects = await db
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject'])
      .where('org_id', '=', fresh.id)
      .orderBy('recipient')
      .execute();
    expect(subjects).toEqual([
      { recipient: 'de@sprachen.example', subject: 'Einladung zur Organisation Sprachen' },
      { recipient: 'inactive@Sprachen.example', subject: 'Invitation à rejoindre Sprachen' },
    ]);
  });
});
