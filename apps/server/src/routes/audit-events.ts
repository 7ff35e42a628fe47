import { errorDocumentSchema, JSON_API_MEDIA_TYPE, userListPathSchema } from '@users-admin/contract';
import {
  type AuditEvent,
  type AuditEventListDocument,
  auditEventListDocumentSchema,
  auditEventsPath,
  auditEventsQuerySchema,
} from '@users-admin/contract/user-actions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/database.ts';
import type { AuditEventsTable } from '../db/schema.ts';
import { listAuditEvents } from '../repositories/audit-events-repository.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';

const DEFAULT_PAGE_SIZE = 25;

function toResource(row: Selectable<AuditEventsTable>): AuditEvent {
  return {
    type: 'audit-events',
    id: row.id,
    attributes: {
      action: row.action as AuditEvent['attributes']['action'],
      actor_id: row.actor_id,
      actor_name: row.actor_name,
      user_id: row.user_id,
      user_name: row.user_name,
      before: row.before,
      after: row.after,
      request_id: row.request_id,
      job_id: row.job_id,
      created_at: row.created_at.toISOString(),
    },
  };
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
      const q = request.query;
      const pageSize = q['page[size]'] ?? DEFAULT_PAGE_SIZE;
      const pageNumber = q['page[number]'] ?? 1;
      const { events, more } = await listAuditEvents(db, orgId, {
        pageSize,
        pageNumber,
        userId: q['filter[user_id]'],
        actorId: q['filter[actor_id]'],
        action: q['filter[action]'],
        since: q['filter[since]'] === undefined ? undefined : new Date(q['filter[since]']),
      });
      const link = (page: number) => {
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(q)) {
          if (value !== undefined && key !== 'page[number]') params.set(key, String(value));
        }
        if (page > 1) params.set('page[number]', String(page));
        const search = params.toString();
        return search ? `${auditEventsPath(orgId)}?${search}` : auditEventsPath(orgId);
      };
      const document: AuditEventListDocument = {
        data: events.map(toResource),
        links: {
          self: link(pageNumber),
          ...(more ? { next: link(pageNumber + 1) } : {}),
          ...(pageNumber > 1 ? { prev: link(pageNumber - 1) } : {}),
        },
      };
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document);
    },
  );
}
