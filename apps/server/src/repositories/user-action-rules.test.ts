import { SKIP_REASONS, USER_ACTIONS } from '@users-admin/contract/user-actions';
import { describe, expect, it } from 'vitest';
import {
  type ActionAsked,
  type ActionTarget,
  losesActiveSystemAdmin,
  reasonInWords,
  refusal,
} from './user-action-rules.ts';

const ACTOR = 'actor';
const user = (overrides: Partial<ActionTarget> = {}): ActionTarget => ({
  id: 'target',
  status: 'active',
  is_external: false,
  is_system_admin: false,
  ...overrides,
});
const promote: ActionAsked = { action: 'set_user_type', isSystemAdmin: true };
const demote: ActionAsked = { action: 'set_user_type', isSystemAdmin: false };
const act = (target: ActionTarget, asked: ActionAsked, admins = 5) => refusal(ACTOR, target, asked, admins);

describe('the rules of actions on users', () => {
  it('applies each action to a user it fits', () => {
    expect(act(user(), promote)).toBeUndefined();
    expect(act(user({ is_system_admin: true }), demote)).toBeUndefined();
    expect(act(user(), { action: 'disable' })).toBeUndefined();
    expect(act(user({ status: 'inactive' }), { action: 'disable' })).toBeUndefined();
    expect(act(user({ status: 'disabled' }), { action: 'enable' })).toBeUndefined();
    expect(act(user(), { action: 'remove' })).toBeUndefined();
    expect(act(user({ status: 'inactive' }), { action: 'invite' })).toBeUndefined();
    expect(act(user({ status: 'pending' }), { action: 'invite' })).toBeUndefined();
  });

  it('refuses an administrator who would disable, remove or demote themselves', () => {
    const self = user({ id: ACTOR, is_system_admin: true });
    expect(act(self, demote)).toBe('self');
    expect(act(self, { action: 'disable' })).toBe('self');
    expect(act(self, { action: 'remove' })).toBe('self');
    // Making oneself what one is already changes nothing.
    expect(act(self, promote)).toBe('unchanged');
  });

  it('leaves third-party users to their identity provider, but their user type may change', () => {
    const external = user({ is_external: true });
    expect(act(external, { action: 'disable' })).toBe('third_party');
    expect(act(user({ is_external: true, status: 'disabled' }), { action: 'enable' })).toBe('third_party');
    expect(act(external, { action: 'remove' })).toBe('third_party');
    expect(act(user({ is_external: true, status: 'inactive' }), { action: 'invite' })).toBe('third_party');
    expect(act(external, promote)).toBeUndefined();
  });

  it('enables only a disabled user and invites only an inactive or pending one', () => {
    for (const status of ['active', 'inactive', 'pending'] as const) {
      expect(act(user({ status }), { action: 'enable' })).toBe('not_disabled');
    }
    for (const status of ['active', 'disabled'] as const) {
      expect(act(user({ status }), { action: 'invite' })).toBe('not_invitable');
    }
  });

  it('says unchanged when nothing would change', () => {
    expect(act(user(), demote)).toBe('unchanged');
    expect(act(user({ is_system_admin: true }), promote)).toBe('unchanged');
    expect(act(user({ status: 'disabled' }), { action: 'disable' })).toBe('unchanged');
  });

  it('keeps the last active System Admin', () => {
    const admin = user({ is_system_admin: true });
    for (const asked of [demote, { action: 'disable' }, { action: 'remove' }] as ActionAsked[]) {
      expect(losesActiveSystemAdmin(admin, asked)).toBe(true);
      expect(act(admin, asked, 1)).toBe('last_system_admin');
      expect(act(admin, asked, 2)).toBeUndefined();
    }
    // A System Admin who is not active is not counted: they may go.
    const disabledAdmin = user({ is_system_admin: true, status: 'disabled' });
    expect(losesActiveSystemAdmin(disabledAdmin, { action: 'remove' })).toBe(false);
    expect(act(disabledAdmin, { action: 'remove' }, 1)).toBeUndefined();
    expect(losesActiveSystemAdmin(admin, promote)).toBe(false);
  });

  it('says every reason of every action in words', () => {
    for (const reason of SKIP_REASONS) {
      for (const action of USER_ACTIONS) expect(reasonInWords(reason, action)).toMatch(/^[A-Z].+\.$/);
    }
    expect(reasonInWords('self', 'set_user_type')).toBe('You cannot demote yourself.');
  });
});
