import type { UserListQuery } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/** The ids of a page by the plain OFFSET query: slow on deep pages, but obviously right. The reference. */
export async function naivePage(db: Db, orgId: string, query: UserListQuery): Promise<string[]> {
  let select = db.selectFrom('users').select('id').where('org_id', '=', orgId);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.isSystemAdmin !== undefined) select = select.where('is_system_admin', '=', query.isSystemAdmin);
  if (query.search) select = select.where(sql<boolean>`strpos(search_text, ${query.search.toLowerCase()}) > 0`);
  const direction = query.sort === '-name' ? 'desc' : 'asc';
  select = query.sort ? select.orderBy('sort_name', direction).orderBy('id', direction) : select.orderBy('id');
  const rows = await select
    .offset((query.pageNumber - 1) * query.pageSize)
    .limit(query.pageSize)
    .execute();
  return rows.map((row) => row.id);
}
