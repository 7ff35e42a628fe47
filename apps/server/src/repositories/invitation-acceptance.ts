import type { SupportedLocale } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { uuidv7 } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { languageOr, tokenHash, tokenOrg } from './invitations-repository.ts';
import type { Writer } from './user-actions-repository.ts';

/** Why a link no longer works: it is the user's, but used, out of date or superseded; or no link at all. */
export type InvitationProblem = 'expired' | 'used' | 'replaced' | 'invalid';

export interface OpenInvitation {
  state: 'valid';
  id: string;
  orgId: string;
  orgName: string;
  userId: string;
  name: string;
  email: string;
  accountId: string | null;
  language: SupportedLocale;
}

export type InvitationLookup = OpenInvitation | { state: InvitationProblem; language?: SupportedLocale };

/**
 * What a link stands for: its invitation if it still works. `lock` takes the invitation and its
 * user for update (an acceptance), so that two acceptances of one link run one after the other.
 */
export async function findInvitation(db: Writer, token: string, lock = false): Promise<InvitationLookup> {
  const orgId = tokenOrg(token);
  if (!orgId) return { state: 'invalid' };
  let query = db
    .selectFrom('invitations')
    .innerJoin('users', (join) =>
      join.onRef('users.org_id', '=', 'invitations.org_id').onRef('users.id', '=', 'invitations.user_id'),
    )
    .innerJoin('organizations', 'organizations.id', 'invitations.org_id')
    .leftJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'invitations.id',
      'invitations.user_id as userId',
      'invitations.expires_at as expiresAt',
      'invitations.accepted_at as acceptedAt',
      'users.name',
      'users.email',
      'users.status',
      'users.is_external as isExternal',
      'users.account_id as accountId',
      'organizations.name as orgName',
      'organizations.locale as orgLocale',
      'accounts.locale',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('invitations as newer')
              .select('newer.id')
              .where('newer.org_id', '=', orgId)
              .whereRef('newer.user_id', '=', 'invitations.user_id')
              .whereRef('newer.created_at', '>', 'invitations.created_at'),
          )
          .as('replaced'),
    ])
    .where('invitations.org_id', '=', orgId)
    .where('invitations.token_hash', '=', tokenHash(token));
  if (lock) query = query.forUpdate(['invitations', 'users']);
  const row = await query.executeTakeFirst();
  if (!row) return { state: 'invalid' };
  const language = languageOr(row.locale, row.orgLocale);
  if (row.acceptedAt) return { state: 'used', language };
  if (row.replaced) return { state: 'replaced', language };
  if (row.expiresAt.getTime() <= Date.now()) return { state: 'expired', language };
  // Disabled, removed from the invitation's reach or made third-party since: the link no longer applies.
  if (row.status !== 'pending' || row.isExternal) return { state: 'invalid', language };
  const { id, userId, name, email, accountId, orgName } = row;
  return { state: 'valid', id, orgId, orgName, userId, name, email, accountId, language };
}

/**
 * The account the invitee signs in with: theirs, else the one of their e-mail address (a person in
 * another organisation), else a new one. A password chosen replaces the account's: the link proves
 * the mailbox, as a reset would. Without one (an external issuer) a new account has none that works.
 */
async function accountFor(tx: Writer, invitation: OpenInvitation, passwordHash: string | undefined) {
  const existing =
    invitation.accountId ??
    (
      await tx
        .selectFrom('accounts')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', invitation.email.trim().toLowerCase()))
        .executeTakeFirst()
    )?.id;
  if (existing) {
    if (passwordHash)
      await tx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', existing).execute();
    return existing;
  }
  const id = uuidv7();
  const { email, name, language } = invitation;
  await tx
    .insertInto('accounts')
    .values({ id, email, name: name || email, password_hash: passwordHash ?? 'none', locale: language })
    .execute();
  return id;
}

export interface Acceptance {
  token: string;
  /** The password chosen at the embedded identity provider; none when an external issuer signed them in. */
  password?: string | undefined;
  /** With an external issuer: the e-mail address it signed in, which must be the invited one. */
  email?: string | undefined;
  requestId?: string | undefined;
}

/**
 * Accepts an invitation in one transaction: the user becomes active with an account, the link is
 * used up, and the change is audited (`accept_invitation`, by the user). Answers the invitation, or
 * why the link does not work.
 */
export async function acceptInvitation(db: Db, acceptance: Acceptance): Promise<InvitationLookup> {
  const passwordHash = acceptance.password === undefined ? undefined : await hashPassword(acceptance.password);
  return db.transaction().execute(async (tx) => {
    const found = await findInvitation(tx, acceptance.token, true);
    if (found.state !== 'valid') return found;
    if (acceptance.email !== undefined && acceptance.email.trim().toLowerCase() !== found.email.trim().toLowerCase()) {
      return { state: 'invalid', language: found.language };
    }
    const accountId = await accountFor(tx, found, passwordHash);
    await tx
      .updateTable('users')
      .set({ status: 'active', account_id: accountId, version: sql<string>`version + 1` })
      .where('org_id', '=', found.orgId)
      .where('id', '=', found.userId)
      .execute();
    await tx
      .updateTable('invitations')
      .set({ accepted_at: new Date() })
      .where('org_id', '=', found.orgId)
      .where('id', '=', found.id)
      .execute();
    await tx
      .insertInto('audit_events')
      .values({
        org_id: found.orgId,
        id: uuidv7(),
        action: 'accept_invitation',
        actor_id: found.userId,
        actor_name: found.name,
        user_id: found.userId,
        user_name: found.name,
        before: JSON.stringify({ status: 'pending' }),
        after: JSON.stringify({ status: 'active' }),
        request_id: acceptance.requestId ?? null,
      })
      .execute();
    return found;
  });
}
