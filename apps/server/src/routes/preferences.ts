import {
  DEFAULT_USER_COLUMNS,
  errorDocumentSchema,
  JSON_API_MEDIA_TYPE,
  type PreferencesDocument,
  preferencesDocumentSchema,
  preferencesPathSchema,
  USER_COLUMNS,
  type UserColumn,
} from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/database.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';

const document = (id: string, columns: readonly string[]): PreferencesDocument => ({
  // Known columns only, in their order: a column removed from the page drops out of saved choices.
  data: {
    type: 'preferences',
    id,
    attributes: { users_columns: USER_COLUMNS.filter((column) => columns.includes(column)) as UserColumn[] },
  },
});

/**
 * `GET` and `PATCH /apis/accounts/api/v3/orgs/{org_id}/preferences`: the signed-in administrator's
 * own choices on the page, kept on the server so that they follow them to any browser. Two routes, each short.
 */
export async function preferencesRoutes(app: FastifyInstance, { db, sessions }: { db: Db; sessions: SessionStore }) {
  // JSON:API's media type is JSON.
  app.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  const path = '/apis/accounts/api/v3/orgs/:org_id/preferences';
  const responses = { 200: preferencesDocumentSchema, ...adminErrors };
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    path,
    {
      schema: {
        summary: "The signed-in administrator's preferences",
        description: "The Users page columns the administrator chose; SPEC.md's columns until they choose.",
        tags: ['preferences'],
        params: preferencesPathSchema,
        response: responses,
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      const userId = assertAdminOf(request, orgId);
      const row = await db
        .selectFrom('preferences')
        .select('users_columns')
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document(userId, row?.users_columns ?? DEFAULT_USER_COLUMNS));
    },
  );

  typed.patch(
    path,
    {
      schema: {
        summary: "Save the signed-in administrator's preferences",
        tags: ['preferences'],
        params: preferencesPathSchema,
        body: preferencesDocumentSchema,
        response: { ...responses, 400: errorDocumentSchema },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      const userId = assertAdminOf(request, orgId);
      const saved = document(userId, request.body.data.attributes.users_columns);
      const columns = saved.data.attributes.users_columns;
      await db
        .insertInto('preferences')
        .values({ org_id: orgId, user_id: userId, users_columns: columns })
        .onConflict((conflict) =>
          conflict.columns(['org_id', 'user_id']).doUpdateSet({ users_columns: columns, updated_at: new Date() }),
        )
        .execute();
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(saved);
    },
  );
}
