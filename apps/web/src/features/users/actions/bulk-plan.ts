import { toUserListParams, type UserAction, type UserListQuery } from '@users-admin/contract';
import type { User } from '../api/get-users.ts';
import type { BulkTarget } from '../api/run-bulk-action.ts';
import type { BulkAction } from '../components/actions-menu.tsx';
import { type Selection, type SelectionTotal, selectedCount, selectedRowsOnPage } from '../model/selection.ts';
import type { ActionKey } from './action-texts.ts';

/** The menu's actions as the API and the texts name them. */
export const BULK_ACTIONS: Record<BulkAction, { action: UserAction; key: ActionKey }> = {
  invitePending: { action: 'invite', key: 'invite' },
  changeUserType: { action: 'set_user_type', key: 'setUserType' },
  disable: { action: 'disable', key: 'disable' },
  enable: { action: 'enable', key: 'enable' },
  remove: { action: 'remove', key: 'remove' },
};

/** What a bulk action will do, to whom, before it is confirmed. */
export interface BulkPlan {
  menuAction: BulkAction;
  action: UserAction;
  key: ActionKey;
  /** Users named by id (some of the page), or every match of the list's query. */
  scope: 'some' | 'all';
  /** How many users; undefined for every match of a total not counted yet. */
  count: number | undefined;
  target: BulkTarget;
  /** Every match with some unticked: a filter cannot leave them out, so the action is not offered. */
  blocked: boolean;
}

export interface BulkContext {
  selection: Selection;
  total: SelectionTotal;
  /** The rows on screen: a selection of some users is always of this page (a new query clears it). */
  rows: readonly User[];
  query: UserListQuery;
}

/**
 * Plans an action over the selection. "Invite pending users" goes to the pending users only: the
 * selected pending rows, or every match narrowed to pending (the menu offers it only when a selected
 * user on the page is pending, so the list's status filter is none or pending).
 */
export function planBulkAction(menuAction: BulkAction, { selection, total, rows, query }: BulkContext): BulkPlan {
  const { action, key } = BULK_ACTIONS[menuAction];
  const invite = menuAction === 'invitePending';
  if (selection.mode === 'some') {
    const chosen = invite
      ? selectedRowsOnPage(selection, rows)
          .filter((user) => user.status === 'pending')
          .map((user) => user.id)
      : [...selection.ids];
    return { menuAction, action, key, scope: 'some', count: chosen.length, target: { ids: chosen }, blocked: false };
  }
  const { pageNumber, pageSize, sort, exactTotal, ...filters } = query;
  const params = toUserListParams(invite ? { ...filters, status: 'pending' } : filters);
  return {
    menuAction,
    action,
    key,
    scope: 'all',
    count: selectedCount(selection, total),
    target: { filter: params.toString() },
    blocked: selection.excluded.size > 0,
  };
}
