import type { UserStatus } from '@users-admin/contract';
import type { SkipReason, UserAction } from '@users-admin/contract/user-actions';

/** What the rules read of a user the action is aimed at. */
export interface ActionTarget {
  id: string;
  status: UserStatus;
  is_external: boolean;
  is_system_admin: boolean;
}

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

/** The rules that read the user alone, in the order their reasons are told. */
function userRule(actorId: string, target: ActionTarget, asked: ActionAsked): SkipReason | undefined {
  const self = target.id === actorId;
  const thirdParty = target.is_external;
  switch (asked.action) {
    case 'set_user_type':
      if (target.is_system_admin === asked.isSystemAdmin) return 'unchanged';
      return self ? 'self' : undefined;
    case 'disable':
      if (self) return 'self';
      if (thirdParty) return 'third_party';
      return target.status === 'disabled' ? 'unchanged' : undefined;
    case 'enable':
      if (thirdParty) return 'third_party';
      return target.status === 'disabled' ? undefined : 'not_disabled';
    case 'remove':
      if (self) return 'self';
      return thirdParty ? 'third_party' : undefined;
    case 'invite':
      if (thirdParty) return 'third_party';
      return INVITABLE.includes(target.status) ? undefined : 'not_invitable';
  }
}

/** Why the administrator may not apply the action to the user, if not; `activeSystemAdmins`: read under lock. */
export function refusal(
  actorId: string,
  target: ActionTarget,
  asked: ActionAsked,
  activeSystemAdmins: number,
): SkipReason | undefined {
  const reason = userRule(actorId, target, asked);
  if (reason) return reason;
  return losesActiveSystemAdmin(target, asked) && activeSystemAdmins <= 1 ? 'last_system_admin' : undefined;
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
