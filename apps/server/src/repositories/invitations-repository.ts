import { createHash, randomBytes } from 'node:crypto';
import {
  DEFAULT_LOCALE,
  INVITATION_INTERVAL_SECONDS,
  SUPPORTED_LOCALES,
  type SupportedLocale,
} from '@users-admin/contract';
import type { UserActionResult } from '@users-admin/contract/user-actions';
import { sql } from 'kysely';
import { isUuid, uuidv7 } from '../lib/ids.ts';
import { renderInvitationMail } from '../mail/invitation-mail.ts';
import { reasonInWords } from './user-action-rules.ts';
import { type ActionInput, applyActionInTransaction, type Writer } from './user-actions-repository.ts';

export type InvitationSettings = { publicUrl: string; ttlSeconds: number };
export type InviteInput = Omit<ActionInput, 'action' | 'isSystemAdmin' | 'expectedVersions'>;
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

export const languageOr = (locale: string | null, fallback: string): SupportedLocale =>
  SUPPORTED_LOCALES.find((tag) => tag === locale) ??
  SUPPORTED_LOCALES.find((tag) => tag === fallback) ??
  DEFAULT_LOCALE;

/** The users among `ids` invited within the interval, and the seconds until each may be again. */
async function recentlyInvited(tx: Writer, orgId: string, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const interval = sql`make_interval(secs => ${INVITATION_INTERVAL_SECONDS})`;
  const rows = await tx
    .selectFrom('invitations')
    .select(['user_id', sql<number>`ceil(extract(epoch from max(created_at) + ${interval} - now()))::int`.as('wait')])
    .where('org_id', '=', orgId)
    .where('user_id', 'in', ids)
    .where('created_at', '>', sql<Date>`now() - ${interval}`)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Math.max(1, Number(row.wait))]));
}

/** What the e-mails say: the organisation, who invites, and each invitee's name, address and language. */
async function mailContext(tx: Writer, input: InviteInput, userIds: string[]) {
  const actorId = isUuid(input.actor.id) ? input.actor.id : null;
  const org = await tx
    .selectFrom('organizations')
    .select((eb) => [
      'name',
      'locale',
      eb
        .selectFrom('users')
        .select('users.name')
        .where('users.org_id', '=', input.orgId)
        .where('users.id', '=', actorId)
        .as('inviter'),
    ])
    .where('id', '=', input.orgId)
    .executeTakeFirstOrThrow();
  const invitees = await tx
    .selectFrom('users')
    .leftJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.name', 'users.email', 'accounts.locale'])
    .where('users.org_id', '=', input.orgId)
    .where('users.id', 'in', userIds)
    .execute();
  return { org, actorId, invitees };
}

/** Writes an invitation and its e-mail (to the outbox) for each user, in the caller's transaction. */
async function writeInvitations(tx: Writer, settings: InvitationSettings, input: InviteInput, userIds: string[]) {
  if (userIds.length === 0) return [];
  const { org, actorId, invitees } = await mailContext(tx, input, userIds);
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + settings.ttlSeconds * 1000);
  const made = invitees.map(({ id: userId, name, email, locale }) => {
    const token = newToken(input.orgId);
    const link = `${settings.publicUrl}/invitations/${token}`;
    const language = languageOr(locale, org.locale);
    const mail = renderInvitationMail({
      language,
      name: name || email,
      inviter: org.inviter ?? org.name,
      org: org.name,
      link,
      expiresAt,
    });
    const invitation = { id: uuidv7(), userId, email, link, expiresAt, createdAt };
    const row = {
      org_id: input.orgId,
      id: invitation.id,
      user_id: userId,
      token_hash: tokenHash(token),
      invited_by: actorId,
      expires_at: expiresAt,
    };
    const { subject, text: text_body, html: html_body } = mail;
    return {
      invitation,
      row,
      outbox: { org_id: input.orgId, id: uuidv7(), recipient: email, subject, text_body, html_body },
    };
  });
  await tx
    .insertInto('invitations')
    .values(made.map(({ row }) => row))
    .execute();
  await tx
    .insertInto('mail_outbox')
    .values(made.map(({ outbox }) => outbox))
    .execute();
  return made.map(({ invitation }) => invitation);
}

/**
 * Invites users within the caller's transaction: the action `invite` (rules, status pending, audit)
 * for those not invited within the interval, then a new invitation each, whose link replaces the one
 * before, and its e-mail in the outbox. `waits`: seconds until each user left out may be invited.
 */
export async function inviteInTransaction(tx: Writer, settings: InvitationSettings, input: InviteInput) {
  const ids = [...new Set(input.ids)];
  const valid = ids.filter(isUuid);
  // Locked first, so that an invitation another call committed meanwhile is seen below.
  if (valid.length > 0) {
    const users = tx.selectFrom('users').select('id').where('org_id', '=', input.orgId).where('id', 'in', valid);
    await users.orderBy('id').forUpdate().execute();
  }
  const waits = await recentlyInvited(tx, input.orgId, valid);
  const fresh = ids.filter((id) => !waits.has(id));
  const outcome = await applyActionInTransaction(tx, { ...input, action: 'invite', ids: fresh });
  const detail = reasonInWords('recently_invited', 'invite');
  const byId = new Map(outcome.results.map((result) => [result.id, result]));
  const skipped = (id: string): UserActionResult => ({ id, result: 'skipped', reason: 'recently_invited', detail });
  const results = ids.map((id) => byId.get(id) ?? skipped(id));
  const changed = outcome.changed.map((user) => user.id);
  const invitations = await writeInvitations(tx, settings, input, changed);
  return { results, invitations, waits };
}
