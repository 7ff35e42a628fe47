import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { chooseIdpLanguage } from '../auth/idp-messages.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { uuidv7 } from '../lib/ids.ts';
import { renderInvitationMail } from '../mail/invitation-mail.ts';
import { type ActionInput, actorOf, applyActionInTransaction, type LockedUser } from './user-actions-repository.ts';

const NOT_SENT = 'invitation link (no SMTP_URL: its mail stays in the outbox)';
type Settings = Pick<Config, 'publicUrl' | 'invitationTtlSeconds' | 'smtpUrl'>;
/** An invitation made, with its link (which only the mail and this value hold). */
export type SentInvitation = Awaited<ReturnType<typeof writeInvitations>>[number];

/** A link's token: the organisation's id (so that its lookup names one organisation), then 256 random bits. */
const newToken = (orgId: string) =>
  Buffer.concat([Buffer.from(orgId.replace(/-/g, ''), 'hex'), randomBytes(32)]).toString('base64url');

/** The organisation a token names; undefined for anything not shaped as one. */
export function tokenOrg(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return undefined;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A person's language: their account's, else the organisation's, as the sign-in pages choose one. */
export const languageOr = (locale: string | null, fallback: string) =>
  chooseIdpLanguage({ uiLocales: `${locale ?? ''} ${fallback}` });

/** Writes an invitation and its e-mail (to the outbox) for each user, in the caller's transaction. */
async function writeInvitations(tx: Db, settings: Settings, input: ActionInput, invitees: LockedUser[]) {
  if (invitees.length === 0) return [];
  const { orgId } = input;
  // What the e-mails say: the organisation, who invites, and each invitee's name and language.
  const inviter = await actorOf(tx, input);
  const org = await tx
    .selectFrom('organizations')
    .select(['name', 'locale'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + settings.invitationTtlSeconds * 1000);
  const about = { inviter: inviter.name ?? org.name, org: org.name, expiresAt };
  const made = invitees.map(({ id: user_id, name, email, locale }) => {
    const token = newToken(orgId);
    const link = `${settings.publicUrl}/invitations/${token}`;
    const invitee = { link, name: name || email, language: languageOr(locale, org.locale) };
    return { id: uuidv7(), user_id, token, link, email, mail: renderInvitationMail({ ...about, ...invitee }) };
  });
  const invited = { org_id: orgId, invited_by: inviter.id, expires_at: expiresAt };
  const rows = made.map(({ id, user_id, token }) => ({ ...invited, id, user_id, token_hash: tokenHash(token) }));
  await tx.insertInto('invitations').values(rows).execute();
  const mails = made.map(({ email, mail }) => ({ org_id: orgId, id: uuidv7(), recipient: email, ...mail }));
  await tx.insertInto('mail_outbox').values(mails).execute();
  const times = { expires_at: expiresAt.toISOString(), created_at: createdAt.toISOString() };
  return made.map(({ id, user_id, email, link }) => ({ id, user_id, email, link, ...times }));
}

/**
 * An action in the caller's transaction (`invite` writes invitations and their mail), and after its
 * commit the mail leaves (`mail`: the sender to wake); without SMTP_URL, each link is logged instead.
 */
export function createInvitations(config: Settings, log: Pick<FastifyBaseLogger, 'info'>, mail?: { wake(): void }) {
  return {
    async act(tx: Db, input: ActionInput) {
      const outcome = await applyActionInTransaction(tx, input);
      const invited = input.action === 'invite' ? outcome.changed : [];
      return { ...outcome, invitations: await writeInvitations(tx, config, input, invited) };
    },
    committed(invitations: SentInvitation[], requestLog = log) {
      if (config.smtpUrl && invitations.length > 0) mail?.wake();
      if (config.smtpUrl) return;
      for (const { user_id: user, email: to, link } of invitations) requestLog.info({ user, to, link }, NOT_SENT);
    },
  };
}
export type Invitations = ReturnType<typeof createInvitations>;
