import type { AuditAction } from '@users-admin/contract/user-actions';
import type { Db } from '../db/database.ts';
import { isUuid } from '../lib/ids.ts';

export interface AuditEventsQuery {
  pageSize: number;
  pageNumber: number;
  userId?: string | undefined;
  actorId?: string | undefined;
  action?: AuditAction | undefined;
  since?: Date | undefined;
}

/**
 * A page of an organisation's audit events, newest first, and whether more follow (one row more is
 * read). An id that is not a UUID names no user, so matches no event.
 */
export async function listAuditEvents(db: Db, orgId: string, query: AuditEventsQuery) {
  const { userId, actorId, action, since } = query;
  if ((userId !== undefined && !isUuid(userId)) || (actorId !== undefined && !isUuid(actorId))) {
    return { events: [], more: false };
  }
  let statement = db.selectFrom('audit_events').selectAll().where('org_id', '=', orgId);
  if (userId !== undefined) statement = statement.where('user_id', '=', userId);
  if (actorId !== undefined) statement = statement.where('actor_id', '=', actorId);
  if (action !== undefined) statement = statement.where('action', '=', action);
  if (since !== undefined) statement = statement.where('created_at', '>=', since);
  const rows = await statement
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset((query.pageNumber - 1) * query.pageSize)
    .limit(query.pageSize + 1)
    .execute();
  return { events: rows.slice(0, query.pageSize), more: rows.length > query.pageSize };
}
