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

export interface InvitationSettings {
  publicUrl: string;
  ttlSeconds: number;
}

export type InviteInput = Omit<ActionInput, 'action' | 'isSystemAdmin' | 'expectedVersions'>;

/** An invitation made, with its link (which only the mail and this value hold). */
export interface SentInvitation {
  id: string;
  userId: string;
  email: string;
  link: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface InviteOutcome {
  results: UserActionResult[];
  invitations: SentInvitation[];
  /** Users invited less than INVITATION_INTERVAL_SECONDS ago: the seconds until they may be again. */
  waits: Map<string, number>;
}

/**
 * A link's token: the organisation's id (16 bytes, so that its lookup names one organisation) then
 * 256 random bits, base64url.
 */
function newToken(orgId: string): string {
  return Buffer.concat([Buffer.from(orgId.replace(/-/g, ''), 'hex'), randomBytes(32)]).toString('base64url');
}

/** The organisation a token names; undefined for anything not shaped as one. */
export function tokenOrg(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{64}$/.test(token)) return undefined;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export const languageOr = (locale: string | null | undefined, fallback: string): SupportedLocale =>
  SUPPORTED_LOCALES.find((language) => language === locale) ??
  SUPPORTED_LOCALES.find((language) => language === fallback) ??
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

/** Writes an invitation and its e-mail (to the outbox) for each user, in the caller's transaction. */
async function writeInvitations(tx: Writer, settings: InvitationSettings, input: InviteInput, userIds: string[]) {
  if (userIds.length === 0) return [];
  const { orgId } = input;
  const org = await tx
    .selectFrom('organizations')
    .select(['name', 'locale'])
    .where('id', '=', orgId)
    .executeTakeFirstOrThrow();
  const inviter = isUuid(input.actor.id)
    ? await tx
        .selectFrom('users')
        .select('name')
        .where('org_id', '=', orgId)
        .where('id', '=', input.actor.id)
        .executeTakeFirst()
    : undefined;
  const invitees = await tx
    .selectFrom('users')
    .leftJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.name', 'users.email', 'accounts.locale'])
    .where('users.org_id', '=', orgId)
    .where('users.id', 'in', userIds)
    .execute();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + settings.ttlSeconds * 1000);
  const made = invitees.map((invitee) => {
    const token = newToken(orgId);
    const link = `${settings.publicUrl}/invitations/${token}`;
    const mail = renderInvitationMail({
      language: languageOr(invitee.locale, org.locale),
      name: invitee.name || invitee.email,
      inviter: inviter?.name ?? org.name,
      org: org.name,
      link,
      expiresAt,
    });
    const invitation = { id: uuidv7(), userId: invitee.id, email: invitee.email, link, expiresAt, createdAt };
    return { token, mail, invitation };
  });
  await tx
    .insertInto('invitations')
    .values(
      made.map(({ token, invitation }) => ({
        org_id: orgId,
        id: invitation.id,
        user_id: invitation.userId,
        token_hash: tokenHash(token),
        invited_by: isUuid(input.actor.id) ? input.actor.id : null,
        expires_at: expiresAt,
      })),
    )
    .execute();
  await tx
    .insertInto('mail_outbox')
    .values(
      made.map(({ mail, invitation }) => ({
        org_id: orgId,
        id: uuidv7(),
        recipient: invitation.email,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
      })),
    )
    .execute();
  return made.map(({ invitation }) => invitation);
}

/**
 * Invites users within the caller's transaction: the action `invite` (rules, status pending,
 * audit events) for those not invited within the interval, then for each a new invitation, whose
 * link replaces the one before, and its e-mail in the outbox. Call `afterCommit` once committed.
 */
export async function inviteInTransaction(
  tx: Writer,
  settings: InvitationSettings,
  input: InviteInput,
): Promise<InviteOutcome> {
  const ids = [...new Set(input.ids)];
  const valid = ids.filter(isUuid);
  // Locked first, so that an invitation committed meanwhile by another call is seen below.
  if (valid.length > 0) {
    await tx
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', input.orgId)
      .where('id', 'in', valid)
      .orderBy('id')
      .forUpdate()
      .execute();
  }
  const waits = await recentlyInvited(tx, input.orgId, valid);
  const outcome = await applyActionInTransaction(tx, {
    ...input,
    action: 'invite',
    ids: ids.filter((id) => !waits.has(id)),
  });
  const byId = new Map(outcome.results.map((result) => [result.id, result]));
  const results = ids.map(
    (id): UserActionResult =>
      byId.get(id) ?? {
        id,
        result: 'skipped',
        reason: 'recently_invited',
        detail: reasonInWords('recently_invited', 'invite'),
      },
  );
  const changed = outcome.changed.map((user) => user.id);
  const invitations = await writeInvitations(tx, settings, input, changed);
  return { results, invitations, waits };
}
