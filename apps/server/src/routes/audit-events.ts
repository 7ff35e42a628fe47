import { errorDocumentSchema, JSON_API_MEDIA_TYPE, userListPathSchema } from '@users-admin/contract';
import {
  type AuditAction,
  type AuditEventListDocument,
  auditEventListDocumentSchema,
  auditEventsPath,
  auditEventsQuerySchema,
} from '@users-admin/contract/user-actions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/database.ts';
import { isUuid } from '../lib/ids.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';

const DEFAULT_PAGE_SIZE = 25;

/** A page of audit events, newest first, and whether more follow; an id that is no UUID matches none. */
async function listAuditEvents(db: Db, orgId: string, query: z.infer<typeof auditEventsQuerySchema>) {
  const { 'filter[user_id]': userId, 'filter[actor_id]': actorId, 'filter[action]': action } = query;
  const since = query['filter[since]'];
  if ([userId, actorId].some((id) => id !== undefined && !isUuid(id))) return { events: [], more: false };
  const pageSize = query['page[size]'] ?? DEFAULT_PAGE_SIZE;
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('org_id', '=', orgId)
    .$if(userId !== undefined, (select) => select.where('user_id', '=', userId as string))
    .$if(actorId !== undefined, (select) => select.where('actor_id', '=', actorId as string))
    .$if(action !== undefined, (select) => select.where('action', '=', action as AuditAction))
    .$if(since !== undefined, (select) => select.where('created_at', '>=', new Date(since as string)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(((query['page[number]'] ?? 1) - 1) * pageSize)
    .limit(pageSize + 1)
    .execute();
  const events = rows.slice(0, pageSize).map(({ org_id, ...row }) => {
    const attributes = { ...row, created_at: row.created_at.toISOString() };
    return { type: 'audit-events' as const, id: row.id, attributes };
  });
  return { events, more: rows.length > pageSize };
}

/** `GET …/audit-events`: the organisation's changes to users, newest first. Read only: no route changes them. */
export async function auditEventsRoutes(app: FastifyInstance, { db, sessions }: { db: Db; sessions: SessionStore }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/apis/accounts/api/v3/orgs/:org_id/audit-events',
    {
      schema: {
        summary: "List an organisation's audit events",
        description:
          'Every change made to its users through this API (who, when, which user, what, before and after, the request ' +
          'and the job), newest first, paged; filter[user_id], filter[actor_id], filter[action] and filter[since] ' +
          '(ISO 8601) narrow them. Only a System Admin of the organisation may read them; none can be changed.',
        tags: ['audit-events'],
        params: userListPathSchema,
        querystring: auditEventsQuerySchema,
        response: { 200: auditEventListDocumentSchema, 400: errorDocumentSchema, ...adminErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      assertAdminOf(request, orgId);
      const { events, more } = await listAuditEvents(db, orgId, request.query);
      const pageNumber = request.query['page[number]'] ?? 1;
      // The same query, on another page (the first page names none).
      const link = (page: number) => {
        const params = new URLSearchParams(request.url.split('?')[1]);
        params.delete('page[number]');
        if (page > 1) params.set('page[number]', String(page));
        return params.size > 0 ? `${auditEventsPath(orgId)}?${params}` : auditEventsPath(orgId);
      };
      const links = {
        self: link(pageNumber),
        ...(more ? { next: link(pageNumber + 1) } : {}),
        ...(pageNumber > 1 ? { prev: link(pageNumber - 1) } : {}),
      };
      const document: AuditEventListDocument = { data: events, links };
      return reply.header('cache-control', 'private, no-store').type(JSON_API_MEDIA_TYPE).send(document);
    },
  );
}
