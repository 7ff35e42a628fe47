import type { UserListQuery } from '@users-admin/contract';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { LISTED_COLUMNS, matchingUsers, orderOf } from './user-conditions.ts';
import type { ListedUser, UsersRepository } from './users-repository.ts';

/** Some users of a view by id, or all of it but some (an export's selection). */
export type Selection = { mode: 'some'; ids: string[] } | { mode: 'all'; excluded: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A selection's condition on ids: these of the view, or the view but these. */
const withSelection = <O>(select: SelectQueryBuilder<Database, 'users', O>, selection?: Selection) => {
  if (!selection) return select;
  const ids = (selection.mode === 'some' ? selection.ids : selection.excluded).filter((id) => UUID.test(id));
  if (selection.mode === 'some') return ids.length > 0 ? select.where('id', 'in', ids) : select.where(sql.lit(false));
  return ids.length > 0 ? select.where('id', 'not in', ids) : select;
};

/** What an export reads: how many users it holds, then every one of them in order. Keyed by one organisation. */
export function createUsersExportRepository(db: Db, users: UsersRepository) {
  return {
    /** The organisation's slug, which names its exports. */
    async organizationSlug(orgId: string): Promise<string | undefined> {
      const row = await db.selectFrom('organizations').select('slug').where('id', '=', orgId).executeTakeFirst();
      return row?.slug;
    },

    /** How many users of the view (search and filters, every match) a selection holds; all of them without one. */
    async countSelected(orgId: string, query: UserListQuery, selection?: Selection): Promise<number> {
      if (selection?.mode !== 'some') {
        const { count } = await users.countUsers(orgId, { ...query, exactTotal: true });
        if (!selection?.excluded.length) return count;
        const some = { mode: 'some', ids: selection.excluded } as const;
        const excluded = await withSelection(matchingUsers(db, orgId, query, false), some).select(
          sql<string>`count(*)`.as('n'),
        );
        return count - Number((await excluded.executeTakeFirstOrThrow()).n);
      }
      const counted = withSelection(matchingUsers(db, orgId, query, false), selection).select(
        sql<string>`count(*)`.as('n'),
      );
      return Number((await counted.executeTakeFirstOrThrow()).n);
    },

    /**
     * Every user of the view a selection holds, in the query's order, in batches: each batch walks
     * the order's index on from the last key of the one before, so memory stays flat however many.
     */
    async *walkInOrder(orgId: string, query: UserListQuery, selection?: Selection, batchSize = 2000) {
      const { columns, descending } = orderOf(query);
      const direction = descending ? 'desc' : 'asc';
      let after: { sort_name: string; id: string } | undefined;
      for (;;) {
        let batch = withSelection(matchingUsers(db, orgId, query, false), selection).select([
          ...LISTED_COLUMNS,
          'sort_name',
        ]);
        if (after) {
          const key = after;
          batch = batch.where((eb) =>
            columns.length === 1
              ? eb('id', descending ? '<' : '>', key.id)
              : eb(eb.refTuple('sort_name', 'id'), descending ? '<' : '>', eb.tuple(key.sort_name, key.id)),
          );
        }
        for (const column of columns) batch = batch.orderBy(column, direction);
        const rows = await batch.limit(batchSize).execute();
        if (rows.length > 0) yield rows as ListedUser[];
        if (rows.length < batchSize) return;
        after = rows[rows.length - 1];
      }
    },
  };
}

export type UsersExportRepository = ReturnType<typeof createUsersExportRepository>;
