import { randomBytes } from 'node:crypto';
import { SESSION_PATH } from '@users-admin/contract';
import { invitationPath } from '@users-admin/contract/user-actions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGS, insertUsers } from '../src/db/seed.ts';
import { apiCaller } from './support/actions-org.ts';
import { type ExternalAccount, type ExternalIssuer, startExternalIssuer } from './support/external-issuer.ts';
import { CookieJar } from './support/sign-in.ts';
import { freePort, startTestServer, type TestServer } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

const CLIENT = { id: 'users-admin', secret: randomBytes(24).toString('base64url') };
const acme = DEMO_ORGS.acme.id;
const account = (username: string, email: string): ExternalAccount => ({
  username,
  password: `${username}-secret`,
  claims: { sub: `ext|${username}`, email, email_verified: true, org_id: acme },
});
const ADA = account('ada', 'admin@acme.example');
const NEWBIE = account('newbie', 'newbie@acme.example');
const STRANGER = account('stranger', 'stranger@acme.example');

/** Through the issuer's own form from the page in `jar`'s last answer, then back to our callback. */
async function signInAt(issuer: ExternalIssuer, jar: CookieJar, start: string, who: ExternalAccount) {
  const form = await jar.follow(start);
  const action = /action="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const body = new URLSearchParams({ username: who.username, password: who.password }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  return jar.follow(new URL(action, issuer.issuer).href, { method: 'POST', headers, body });
}

describe('an invitation accepted by signing in at an external issuer', () => {
  let issuer: ExternalIssuer;
  let server: TestServer;
  let newbieId: string;

  beforeAll(async () => {
    const port = await freePort();
    issuer = await startExternalIssuer({
      relyingPartyUrl: `http://127.0.0.1:${port}`,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      accounts: [ADA, NEWBIE, STRANGER],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], org: ['org_id'] },
    });
    server = await startTestServer({
      PORT: String(port),
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
    });
    const row = { ...userRow(acme, 'New Bie', 'newbie@acme.example'), status: 'inactive' as const };
    await insertUsers(server.database.db, [row]);
    newbieId = row.id;
  });
  afterAll(async () => {
    await server?.close();
    await issuer?.close();
  });

  it('sends them to the issuer with the invited address, and only that address accepts it', async () => {
    const admin = new CookieJar();
    await signInAt(issuer, admin, `${server.baseUrl}/auth/start`, ADA);
    expect((await apiCaller(server.baseUrl)(admin, 'POST', invitationPath(acme, newbieId))).status).toBe(201);
    // No SMTP_URL: the mail waits in the outbox, its link in its text.
    const mail = await server.database.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('org_id', '=', acme)
      .where('recipient', '=', 'newbie@acme.example')
      .executeTakeFirstOrThrow();
    const link = /http\S+\/invitations\/\S{64}/.exec(mail.text_body)?.[0] ?? '';

    const stranger = new CookieJar();
    const page = await (await stranger.follow(link)).text();
    expect(page).toContain('sign in at your organisation’s identity provider with newbie@acme.example');
    await signInAt(issuer, stranger, `${server.baseUrl}/auth/start`, STRANGER);
    const refused = await fetch(`${server.baseUrl}${SESSION_PATH}`, { headers: { cookie: stranger.header() } });
    expect(refused.ok).toBe(false);

    const newbie = new CookieJar();
    await newbie.follow(link);
    await signInAt(issuer, newbie, `${server.baseUrl}/auth/start`, NEWBIE);
    const session = await fetch(`${server.baseUrl}${SESSION_PATH}`, { headers: { cookie: newbie.header() } });
    expect(await session.json()).toMatchObject({ sub: newbieId, org_id: acme });
    const user = await server.database.db
      .selectFrom('users')
      .select('status')
      .where('org_id', '=', acme)
      .where('id', '=', newbieId)
      .executeTakeFirstOrThrow();
    expect(user.status).toBe('active');
    expect((await fetch(link)).status).toBe(410);
  });
});
