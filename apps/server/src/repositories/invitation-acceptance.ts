import type { SupportedLocale } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { uuidv7 } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { languageOr, tokenHash, tokenOrg } from './invitations-repository.ts';

/** Why a link does not work: used, superseded by a resend, out of date, or no (longer an) invitation. */
export type InvitationProblem = 'expired' | 'used' | 'replaced' | 'invalid';

const lookup = (db: Db, orgId: string, token: string) =>
  db
    .selectFrom('invitations')
    .innerJoin('users', (join) =>
      join.onRef('users.org_id', '=', 'invitations.org_id').onRef('users.id', '=', 'invitations.user_id'),
    )
    .innerJoin('organizations', 'organizations.id', 'invitations.org_id')
    .leftJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['invitations.id', 'invitations.user_id as userId', 'invitations.expires_at', 'invitations.accepted_at'])
    .select(['users.name', 'users.email', 'users.status', 'users.is_external', 'users.account_id as accountId'])
    .select(['organizations.name as orgName', 'organizations.locale as orgLocale', 'accounts.locale'])
    .select((eb) =>
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
    )
    .where('invitations.org_id', '=', orgId)
    .where('invitations.token_hash', '=', tokenHash(token));

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof lookup>['executeTakeFirst']>>>;

function problemOf(row: Row): InvitationProblem | undefined {
  if (row.accepted_at) return 'used';
  if (row.replaced) return 'replaced';
  if (row.expires_at.getTime() <= Date.now()) return 'expired';
  // Disabled, removed or made third-party since: the link no longer applies.
  return row.status !== 'pending' || row.is_external ? 'invalid' : undefined;
}

/** What a link stands for: its invitation if it still works, else why not; `lock`: two acceptances run in turn. */
export async function findInvitation(db: Db, token: string, lock = false) {
  const orgId = tokenOrg(token);
  const query = orgId ? lookup(db, orgId, token) : undefined;
  const row = await (lock ? query?.forUpdate(['invitations', 'users']) : query)?.executeTakeFirst();
  if (!orgId || !row) return { state: 'invalid' as InvitationProblem, language: undefined };
  const language: SupportedLocale = languageOr(row.locale, row.orgLocale);
  const problem = problemOf(row);
  if (problem) return { state: problem, language };
  return { state: 'valid' as const, orgId, language, ...row };
}

export type InvitationLookup = Awaited<ReturnType<typeof findInvitation>>;
type OpenInvitation = Extract<InvitationLookup, { state: 'valid' }>;

/**
 * The invitee's account: theirs, else their address's (another organisation's member), else a new one.
 * A password chosen becomes its own: the link proves the mailbox, as a reset would.
 */
async function accountFor(tx: Db, invitation: OpenInvitation, passwordHash: string | undefined) {
  const { email, name, language } = invitation;
  const byAddress = tx
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()));
  const id = invitation.accountId ?? (await byAddress.executeTakeFirst())?.id;
  if (id && passwordHash)
    await tx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  if (id) return id;
  const created = { id: uuidv7(), email, name: name || email, password_hash: passwordHash ?? 'none', locale: language };
  await tx.insertInto('accounts').values(created).execute();
  return created.id;
}

/**
 * Accepts an invitation: the user active with an account, the link used up, the change audited as the
 * user's own. `email`: the address an external issuer signed in, which must be the invited one.
 */
export async function acceptInvitation(
  db: Db,
  acceptance: { token: string; password?: string; email?: string; requestId: string },
): Promise<InvitationLookup> {
  const passwordHash = acceptance.password === undefined ? undefined : await hashPassword(acceptance.password);
  return db.transaction().execute(async (tx) => {
    const found = await findInvitation(tx, acceptance.token, true);
    if (found.state !== 'valid') return found;
    if (acceptance.email !== undefined && acceptance.email.trim().toLowerCase() !== found.email.trim().toLowerCase()) {
      return { state: 'invalid', language: found.language };
    }
    const { orgId, userId, name } = found;
    const accountId = await accountFor(tx, found, passwordHash);
    const active = { status: 'active' as const, account_id: accountId, version: sql<string>`version + 1` };
    await tx.updateTable('users').set(active).where('org_id', '=', orgId).where('id', '=', userId).execute();
    const accepted = { accepted_at: new Date() };
    await tx.updateTable('invitations').set(accepted).where('org_id', '=', orgId).where('id', '=', found.id).execute();
    const change = { before: JSON.stringify({ status: 'pending' }), after: JSON.stringify({ status: 'active' }) };
    const user = { user_id: userId, user_name: name, actor_id: userId, actor_name: name };
    const event = { org_id: orgId, id: uuidv7(), action: 'accept_invitation' as const, ...user, ...change };
    const row = { ...event, request_id: acceptance.requestId };
    await tx.insertInto('audit_events').values(row).execute();
    return found;
  });
}
