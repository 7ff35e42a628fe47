// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { demoUser } from '../../../testing/users-fixtures.ts';
import { toUser } from '../api/get-users.ts';
import { EMPTY_SELECTION, selectAll, toggleRow } from '../model/selection.ts';
import { planBulkAction } from './bulk-plan.ts';

// demoUser: 1 active, 2 pending, 3 inactive, 4 disabled, 5 third party.
const rows = [1, 2, 3, 4, 6, 7].map((n) => toUser(demoUser(n)));
const query = { pageNumber: 2, pageSize: 50, sort: 'name' as const, search: 'ann', isSystemAdmin: false };
const some = [1, 2, 3].reduce((selection, n) => toggleRow(selection, toUser(demoUser(n))), EMPTY_SELECTION);

describe('a bulk action’s plan', () => {
  it('names the selected users by id', () => {
    const plan = planBulkAction('remove', { selection: some, total: { count: 60, exact: true }, rows, query });
    expect(plan).toMatchObject({ action: 'remove', key: 'remove', scope: 'some', count: 3, blocked: false });
    expect(plan.target).toEqual({ ids: ['u1', 'u2', 'u3'] });
  });

  it('invites only the selected users who are pending', () => {
    const plan = planBulkAction('invitePending', { selection: some, total: { count: 60, exact: true }, rows, query });
    expect(plan).toMatchObject({ action: 'invite', count: 1, target: { ids: ['u2'] } });
  });

  it('names every match by the list’s filters, without its page and order', () => {
    const plan = planBulkAction('changeUserType', {
      selection: selectAll(),
      total: { count: 512_345, exact: true },
      rows,
      query,
    });
    expect(plan).toMatchObject({ action: 'set_user_type', scope: 'all', count: 512_345, blocked: false });
    expect(plan.target).toEqual({ filter: 'filter%5Bquery%5D=ann&filter%5Bis_system_admin%5D=false' });
  });

  it('narrows every match to the pending users for an invitation', () => {
    const plan = planBulkAction('invitePending', {
      selection: selectAll(),
      total: { count: 9, exact: true },
      rows,
      query: { pageNumber: 1, pageSize: 25 },
    });
    expect(plan.target).toEqual({ filter: 'filter%5Bstatus%5D=pending' });
  });

  it('has no count for every match of a total not counted yet', () => {
    const plan = planBulkAction('disable', {
      selection: selectAll(),
      total: { count: 1_000, exact: false },
      rows,
      query,
    });
    expect(plan.count).toBeUndefined();
  });

  it('is blocked when users were unticked after selecting every match: a filter cannot leave them out', () => {
    const selection = toggleRow(selectAll(), rows[0] as (typeof rows)[number]);
    const plan = planBulkAction('enable', { selection, total: { count: 60, exact: true }, rows, query });
    expect(plan.blocked).toBe(true);
  });
});
