import {
  type ExportColumn,
  type ExportRequest,
  exportPath,
  toUserListParams,
  USER_COLUMNS,
  type UserColumn,
  type UserListQuery,
} from '@users-admin/contract';
import type { TFunction } from 'i18next';
import type { Selection } from '../model/selection.ts';

/** Each optional column's export column and the key of its header in the page's texts. */
const COLUMNS = {
  data_source: { key: 'data_source', header: 'users.columns.dataSource' },
  status: { key: 'status', header: 'users.columns.status' },
  user_type: { key: 'user_type', header: 'users.columns.userType' },
  last_sign_in: { key: 'last_sign_in', header: 'users.sheet.fields.lastSignIn' },
  created: { key: 'created', header: 'users.sheet.fields.created' },
} as const satisfies Record<UserColumn, { key: ExportColumn; header: string }>;

/** The export call's address: the list's filters, search and order, without its page. */
export function exportUrl(orgId: string, query: UserListQuery): string {
  const { pageNumber: _page, pageSize: _size, exactTotal: _exact, ...view } = query;
  const params = toUserListParams(view).toString();
  return params ? `${exportPath(orgId)}?${params}` : exportPath(orgId);
}

/** The selection to export, or undefined for the whole view (nothing is selected). */
export function exportSelection(selection: Selection): ExportRequest['selection'] {
  if (selection.mode === 'all') return { mode: 'all', excluded: [...selection.excluded] };
  return selection.ids.size > 0 ? { mode: 'some', ids: [...selection.ids] } : undefined;
}

/**
 * The export's body in the page's words: the User column as name and e-mail, then the optional
 * columns shown, in the table's order; the words of the values; the selection, if any.
 */
export function exportRequest(shown: readonly UserColumn[], selection: Selection, t: TFunction): ExportRequest {
  const chosen = exportSelection(selection);
  return {
    columns: [
      { key: 'name', header: t('users.export.nameHeader') },
      { key: 'email', header: t('users.sheet.fields.email') },
      ...USER_COLUMNS.filter((column) => shown.includes(column)).map((column) => ({
        key: COLUMNS[column].key,
        header: t(COLUMNS[column].header),
      })),
    ],
    values: {
      platform: t('users.dataSource.platform'),
      third_party: t('users.dataSource.thirdParty'),
      active: t('users.status.active'),
      inactive: t('users.status.inactive'),
      pending: t('users.status.pending'),
      disabled: t('users.status.disabled'),
      system_admin: t('users.userType.systemAdmin'),
      user: t('users.userType.user'),
      never: t('users.sheet.never'),
    },
    ...(chosen ? { selection: chosen } : {}),
  };
}
