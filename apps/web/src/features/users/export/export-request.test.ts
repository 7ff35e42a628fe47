import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, selectAll, toggleRow } from '../model/selection.ts';
import { exportRequest, exportUrl } from './export-request.ts';

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const t = i18n.t.bind(i18n);

describe('the export request', () => {
  it("asks for the view's filters, search and order, never its page", () => {
    const url = exportUrl(ORG, { pageNumber: 3, pageSize: 50, sort: '-name', search: 'ada', status: 'pending' });
    const [path, query] = url.split('?');
    expect(path).toBe(`/apis/accounts/api/v3/orgs/${ORG}/users/export`);
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      sort: '-name',
      'filter[query]': 'ada',
      'filter[status]': 'pending',
    });
    expect(exportUrl(ORG, { pageNumber: 1, pageSize: 25 })).toBe(`/apis/accounts/api/v3/orgs/${ORG}/users/export`);
  });

  it('writes the User column as name and e-mail, then the columns shown in the table order, in the page words', () => {
    const body = exportRequest(['user_type', 'data_source', 'status'], EMPTY_SELECTION, t);
    expect(body.columns).toEqual([
      { key: 'name', header: 'Name' },
      { key: 'email', header: 'Email' },
      { key: 'data_source', header: 'Data source' },
      { key: 'status', header: 'Status' },
      { key: 'user_type', header: 'User type' },
    ]);
    expect(body.values).toMatchObject({ third_party: 'Third party', system_admin: 'System Admin', never: 'Never' });
    expect(body).not.toHaveProperty('selection');
  });

  it('exports the ticked users, or every match but the unticked after "Select all"', () => {
    const ticked = toggleRow(EMPTY_SELECTION, { id: 'u2', isExternal: false });
    expect(exportRequest([], ticked, t).selection).toEqual({ mode: 'some', ids: ['u2'] });
    const allBut = toggleRow(selectAll(), { id: 'u7', isExternal: false });
    expect(exportRequest([], allBut, t).selection).toEqual({ mode: 'all', excluded: ['u7'] });
  });
});
