import { INVITATION_INTERVAL_SECONDS } from '@users-admin/contract';
import type { UserActionResult } from '@users-admin/contract/user-actions';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import { isUuid, uuidv7 } from '../lib/ids.ts';
import { type ActionAsked, losesActiveSystemAdmin, reasonInWords, refusal } from './user-action-rules.ts';

export interface ActionInput extends ActionAsked {
  orgId: string;
  /** The acting administrator: their user id in the organisation. */
  actor: { id: string };
  /** The users, by id; repeated ids count once, ids of no user are skipped as `not_found`. */
  ids: readonly string[];
  requestId?: string | null | undefined;
  jobId?: string | null | undefined;
  /** A change asked with `If-Match`: the versions it may apply to (each user must be at one of them). */
  expectedVersions?: readonly string[] | undefined;
}

export type LockedUser = UserRow & { locale: string | null };
type Locked = { byId: Map<string, LockedUser>; admins: number; waits: Map<string, number> };

/** The user changed since the version the change was asked against: answered 412 wherever it is thrown. */
export class StaleVersion extends ApiProblem {
  constructor() {
    const detail = 'The user changed since you read them: read them again, then retry.';
    super(412, [{ status: '412', code: 'precondition_failed', title: 'Precondition failed', detail }]);
  }
}

const NEW_STATUS = { invite: 'pending', disable: 'disabled', enable: 'active' } as const;

/** The attribute each action sets, and its new value; `remove` deletes the row instead. */
function changeOf(asked: ActionAsked): { status?: 'active' | 'disabled' | 'pending'; is_system_admin?: boolean } {
  if (asked.action === 'set_user_type') return { is_system_admin: asked.isSystemAdmin === true };
  return asked.action === 'remove' ? {} : { status: NEW_STATUS[asked.action] };
}

/** Locks the users in id order (two calls over overlapping users never deadlock), with their account's language. */
async function lockUsers(tx: Db, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, LockedUser>();
  const rows = await tx
    .selectFrom('users')
    .leftJoin('accounts', 'accounts.id', 'users.account_id')
    .selectAll('users')
    .select('accounts.locale')
    .where('users.org_id', '=', orgId)
    .where('users.id', 'in', ids)
    .orderBy('users.id')
    .forUpdate(['users'])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The organisation's active System Admins, its count rows locked: a concurrent demotion waits for this one. */
async function lockActiveSystemAdmins(tx: Db, orgId: string): Promise<number> {
  const rows = await tx
    .selectFrom('user_counts')
    .select('n')
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .where('is_system_admin', '=', true)
    .forUpdate()
    .execute();
  return rows.reduce((sum, row) => sum + Number(row.n), 0);
}

/** For `invite`: the users among `ids` invited within the interval, and the seconds until each may be again. */
async function recentlyInvited(tx: Db, input: ActionInput, ids: string[]): Promise<Map<string, number>> {
  if (input.action !== 'invite' || ids.length === 0) return new Map();
  const interval = sql`make_interval(secs => ${INVITATION_INTERVAL_SECONDS})`;
  const rows = await tx
    .selectFrom('invitations')
    .select(['user_id', sql<number>`ceil(extract(epoch from max(created_at) + ${interval} - now()))::int`.as('wait')])
    .where('org_id', '=', input.orgId)
    .where('user_id', 'in', ids)
    .where('created_at', '>', sql<Date>`now() - ${interval}`)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Math.max(1, Number(row.wait))]));
}

/** The rules over each user in turn, the count of active System Admins falling with each one taken. */
function decide(input: ActionInput, ids: readonly string[], { byId, admins, waits }: Locked) {
  let activeAdmins = admins;
  const results: UserActionResult[] = [];
  const changed: LockedUser[] = [];
  for (const id of ids) {
    const target = byId.get(id);
    const reason = target ? refusal(input.actor.id, target, input, activeAdmins, waits.has(id)) : 'not_found';
    if (reason || !target) {
      results.push({ id, result: 'skipped', reason, detail: reasonInWords(reason ?? 'not_found', input.action) });
      continue;
    }
    if (losesActiveSystemAdmin(target, input)) activeAdmins -= 1;
    results.push({ id, result: 'done' });
    changed.push(target);
  }
  return { results, changed };
}

/** Writes the change to the users, one statement for all of them (the count triggers run once). */
async function writeChange(tx: Db, input: ActionInput, ids: string[]) {
  if (input.action === 'remove') {
    // The membership leaves; the account stays, as it may belong to other organisations.
    await tx.deleteFrom('users').where('org_id', '=', input.orgId).where('id', 'in', ids).execute();
    await tx.deleteFrom('preferences').where('org_id', '=', input.orgId).where('user_id', 'in', ids).execute();
    return;
  }
  await tx
    .updateTable('users')
    .set({ ...changeOf(input), version: sql<string>`version + 1` })
    .where('org_id', '=', input.orgId)
    .where('id', 'in', ids)
    .execute();
}

/** The acting administrator, named as the organisation names them (the name is kept should they leave it). */
export async function actorOf(tx: Db, { orgId, actor: { id } }: Pick<ActionInput, 'orgId' | 'actor'>) {
  if (!isUuid(id)) return { id: null, name: null };
  const user = await tx
    .selectFrom('users')
    .select('name')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  return { id, name: user?.name ?? null };
}

/** One audit event per changed user: the changed attributes before and after. */
async function writeAudit(tx: Db, input: ActionInput, changed: LockedUser[]) {
  const after = changeOf(input);
  const keys = input.action === 'remove' ? ['status', 'is_system_admin'] : Object.keys(after);
  const actor = await actorOf(tx, input);
  const event = { org_id: input.orgId, action: input.action, actor_id: actor.id, actor_name: actor.name };
  const about = { after: JSON.stringify(after), request_id: input.requestId ?? null, job_id: input.jobId ?? null };
  const events = changed.map((user) => {
    const before = JSON.stringify(Object.fromEntries(keys.map((key) => [key, user[key as keyof LockedUser]])));
    return { ...event, ...about, id: uuidv7(), user_id: user.id, user_name: user.name, before };
  });
  await tx.insertInto('audit_events').values(events).execute();
}

/**
 * An action on users in the caller's transaction: locked, ruled, changed (version one more), audited.
 * `results`: one per distinct id, in the order asked; `changed`: the users changed, as they were.
 */
export async function applyActionInTransaction(tx: Db, input: ActionInput) {
  const ids = [...new Set(input.ids)];
  const byId = await lockUsers(tx, input.orgId, ids.filter(isUuid));
  const users = [...byId.values()];
  const expected = input.expectedVersions;
  if (expected && users.some((user) => !expected.includes(String(user.version)))) throw new StaleVersion();
  const losing = users.some((user) => losesActiveSystemAdmin(user, input));
  const admins = losing ? await lockActiveSystemAdmins(tx, input.orgId) : Number.POSITIVE_INFINITY;
  // Read under the users' locks: an invitation another call committed meanwhile is seen.
  const waits = await recentlyInvited(tx, input, [...byId.keys()]);
  const outcome = { ...decide(input, ids, { byId, admins, waits }), waits };
  const changedIds = outcome.changed.map((user) => user.id);
  if (changedIds.length === 0) return outcome;
  await writeChange(tx, input, changedIds);
  await writeAudit(tx, input, outcome.changed);
  // Users disabled or removed may no longer be signed in here.
  if (input.action === 'disable' || input.action === 'remove') {
    await tx.deleteFrom('sessions').where('org_id', '=', input.orgId).where('account_sub', 'in', changedIds).execute();
  }
  return outcome;
}

/** Applies an action to users in one transaction (a bulk call, or one batch of a job): one result per id. */
export async function applyAction(db: Db, input: ActionInput): Promise<UserActionResult[]> {
  return (await db.transaction().execute((tx) => applyActionInTransaction(tx, input))).results;
}
