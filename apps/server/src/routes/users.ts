import {
  errorDocumentSchema,
  JSON_API_MEDIA_TYPE,
  toUserListParams,
  toUserListQuery,
  type UserListDocument,
  type UserListQuery,
  userListDocumentSchema,
  userListPathSchema,
  userListQuerySchema,
  usersPath,
} from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionStore } from '../auth/sessions.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import type { ListedUser, UsersRepository } from '../repositories/users-repository.ts';

export interface UsersRoutesOptions {
  sessions: SessionStore;
  users: UsersRepository;
}

/** `GET /apis/accounts/api/v3/orgs/{org_id}/users`: the JSON:API users list (SPEC.md §7). */
export async function usersRoutes(app: FastifyInstance, options: UsersRoutesOptions) {
  const { sessions, users } = options;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/apis/accounts/api/v3/orgs/:org_id/users',
    {
      schema: {
        summary: "List an organisation's users",
        description:
          'A page of the users of the organisation, with the exact number that match. Only a System Admin of the organisation may list them.',
        tags: ['users'],
        params: userListPathSchema,
        querystring: userListQuerySchema,
        response: {
          200: userListDocumentSchema,
          400: errorDocumentSchema,
          401: errorDocumentSchema,
          403: errorDocumentSchema,
        },
      },
      // Who asks comes before what is asked: no session answers 401 whatever the parameters.
      onRequest: async (request) => {
        // The session and its subject's role in one statement: one round trip before the list.
        const lookup = await sessions.lookup(request, { withRole: true });
        if (lookup.state !== 'valid') throw ApiProblem.unauthorized();
        request.session = lookup.session;
      },
    },
    async (request, reply) => {
      const session = request.session;
      const orgId = request.params.org_id;
      // The role was read for the session's own organisation: any other organisation is forbidden.
      if (!session || session.claims.org_id !== orgId || session.isSystemAdmin !== true) {
        throw ApiProblem.forbidden();
      }
      const query = toUserListQuery(request.query);
      const page = await users.listUsers(orgId, query);
      const document: UserListDocument = {
        data: page.users.map(toResource),
        links: listLinks(usersPath(orgId), query, page.total),
        meta: { total_count: page.total },
      };
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document);
    },
  );
}

function toResource(user: ListedUser): UserListDocument['data'][number] {
  const { id, ...attributes } = user;
  return { type: 'users', id, attributes };
}

function listLinks(path: string, query: UserListQuery, total: number): UserListDocument['links'] {
  const lastPage = Math.max(1, Math.ceil(total / query.pageSize));
  const link = (pageNumber: number) => {
    const params = toUserListParams({ ...query, pageNumber }).toString();
    return params ? `${path}?${params}` : path;
  };
  return {
    self: link(query.pageNumber),
    first: link(1),
    last: link(lastPage),
    ...(query.pageNumber > 1 ? { prev: link(Math.min(query.pageNumber - 1, lastPage)) } : {}),
    ...(query.pageNumber < lastPage ? { next: link(query.pageNumber + 1) } : {}),
  };
}
