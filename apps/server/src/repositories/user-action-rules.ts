import type { UserStatus } from '@users-admin/contract';
import type { SkipReason, UserAction } from '@users-admin/contract/user-actions';
import type { UserRow } from '../db/schema.ts';

/** What the rules read of a user the action is aimed at. */
export type ActionTarget = Pick<UserRow, 'id' | 'status' | 'is_external' | 'is_system_admin'>;

export interface ActionAsked {
  action: UserAction;
  /** For `set_user_type`: the user type to give. */
  isSystemAdmin?: boolean | undefined;
}

/** Statuses an invitation may go to: a first one (inactive) or a resend (pending). */
const INVITABLE: readonly UserStatus[] = ['inactive', 'pending'];

/** Whether applying the action takes an active System Admin away from the organisation. */
export function losesActiveSystemAdmin(target: ActionTarget, asked: ActionAsked): boolean {
  if (target.status !== 'active' || !target.is_system_admin) return false;
  if (asked.action === 'set_user_type') return asked.isSystemAdmin === false;
  return asked.action === 'disable' || asked.action === 'remove';
}

/**
 * Why the administrator may not apply the action to the user, if not: each action's reasons in the
 * order they are told, and whether each holds. `activeSystemAdmins`: the organisation's, read under lock.
 */
export function refusal(
  actorId: string,
  target: ActionTarget,
  asked: ActionAsked,
  activeSystemAdmins: number,
  recently_invited = false,
): SkipReason | undefined {
  const self = target.id === actorId;
  const third_party = target.is_external;
  const last_system_admin = losesActiveSystemAdmin(target, asked) && activeSystemAdmins <= 1;
  const rules: Record<UserAction, Partial<Record<SkipReason, boolean>>> = {
    set_user_type: { unchanged: target.is_system_admin === asked.isSystemAdmin, self, last_system_admin },
    disable: { self, third_party, unchanged: target.status === 'disabled', last_system_admin },
    enable: { third_party, not_disabled: target.status !== 'disabled' },
    remove: { self, third_party, last_system_admin },
    invite: { recently_invited, third_party, not_invitable: !INVITABLE.includes(target.status) },
  };
  return (Object.entries(rules[asked.action]) as [SkipReason, boolean][]).find(([, holds]) => holds)?.[0];
}

const verb = (action: UserAction) => (action === 'set_user_type' ? 'change the user type of' : action);

/** Each reason in words, for a person (the `detail` of a skipped result or of a 409). */
const REASONS: Record<SkipReason, (action: UserAction) => string> = {
  self: (action) => `You cannot ${action === 'set_user_type' ? 'demote' : verb(action)} yourself.`,
  last_system_admin: () => 'The organisation must keep at least one active System Admin.',
  third_party: (action) =>
    `Third-party users are managed by their identity provider: you cannot ${verb(action)} them here.`,
  not_invitable: () => 'An invitation goes only to an inactive or pending user.',
  not_disabled: () => 'Only a disabled user can be enabled.',
  unchanged: (action) =>
    action === 'disable' ? 'The user is disabled already.' : 'The user already has this user type.',
  recently_invited: () => 'The user was invited less than a minute ago: wait a minute before inviting them again.',
  not_found: () => 'The organisation has no user with this id.',
};
export const reasonInWords = (reason: SkipReason, action: UserAction) => REASONS[reason](action);
