import {
  errorDocumentSchema,
  JSON_API_MEDIA_TYPE,
  PAGE_BEYOND_SEARCH_WINDOW,
  SEARCH_WINDOW,
  toUserListParams,
  toUserListQuery,
  type UserDocument,
  type UserListDocument,
  type UserListQuery,
  type UserResource,
  userDocumentSchema,
  userListDocumentSchema,
  userListPathSchema,
  userListQuerySchema,
  userPathSchema,
  usersPath,
} from '@users-admin/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionStore } from '../auth/sessions.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import {
  type ListedUser,
  PageBeyondWindow,
  pagedWithinWindow,
  type Total,
  type UsersRepository,
} from '../repositories/users-repository.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';

/** The search window as the API's texts write it. */
const WINDOW = SEARCH_WINDOW.toLocaleString('en');

/** `GET …/users` (the JSON:API users list, SPEC.md §7) and `GET …/users/{id}`: two routes, each short. */
export async function usersRoutes(app: FastifyInstance, options: { sessions: SessionStore; users: UsersRepository }) {
  const { sessions, users } = options;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/apis/accounts/api/v3/orgs/:org_id/users',
    {
      schema: {
        summary: "List an organisation's users",
        description:
          'A page of the users of the organisation and how many match. Without a search the total is exact. A search counts ' +
          `its matches exactly up to ${WINDOW} (meta.total_count_relation "eq"); beyond, total_count is ${WINDOW} and the relation ` +
          `"gte", unless page[total]=exact asks for every match to be counted. A search with more than ${WINDOW} matches pages ` +
          `through its first ${WINDOW}: a page that starts deeper answers 400. Only a System Admin of the organisation may list them.`,
        tags: ['users'],
        params: userListPathSchema,
        querystring: userListQuerySchema,
        response: { 200: userListDocumentSchema, 400: errorDocumentSchema, ...adminErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      assertAdminOf(request, orgId);
      const query = toUserListQuery(request.query);
      const page = await users.listUsers(orgId, query).catch((error: unknown) => {
        throw error instanceof PageBeyondWindow ? beyondWindow() : error;
      });
      const document: UserListDocument = {
        data: page.users.map(toResource),
        links: listLinks(usersPath(orgId), query, page.total),
        meta: { total_count: page.total.count, total_count_relation: page.total.relation },
      };
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document);
    },
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/apis/accounts/api/v3/orgs/:org_id/users/:id',
    {
      schema: {
        summary: 'Get one user of an organisation',
        description:
          'The user with the attributes of the list, and its version as ETag (what PATCH and DELETE take as If-Match). ' +
          'Only a System Admin of the organisation may read it; an unknown id answers 404.',
        tags: ['users'],
        params: userPathSchema,
        response: { 200: userDocumentSchema, ...adminErrors, 404: errorDocumentSchema },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      assertAdminOf(request, orgId);
      const user = await users.getUser(orgId, request.params.id);
      if (!user) throw ApiProblem.notFound('The organisation has no user with this id.');
      reply.header('cache-control', 'private, no-store').header('etag', entityTag(user.version));
      return reply.type(JSON_API_MEDIA_TYPE).send({ data: toResource(user) } satisfies UserDocument);
    },
  );
}

/** A user's version as a strong entity tag (RFC 9110): `"<version>"`. */
export const entityTag = (version: string | number | bigint) => `"${String(version)}"`;

/**
 * A user as a JSON:API resource; times in ISO 8601. Each attribute named: a rest spread of a
 * database row was the costliest step of a list's answer (docs/performance.md).
 */
export function toResource(user: ListedUser): UserResource {
  return {
    type: 'users',
    id: user.id,
    attributes: {
      name: user.name,
      email: user.email,
      initials: user.initials,
      first_name: user.first_name,
      last_name: user.last_name,
      status: user.status,
      is_external: user.is_external,
      is_system_admin: user.is_system_admin,
      last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
      created_at: user.created_at.toISOString(),
    },
  };
}

function beyondWindow() {
  const window = WINDOW;
  return ApiProblem.of(400, {
    code: PAGE_BEYOND_SEARCH_WINDOW,
    title: 'Page beyond the search window',
    detail: `A search with more than ${window} matches can be paged through its first ${window}: narrow the search or add filters to see the rest.`,
    source: { parameter: 'page[number]' },
  });
}

/**
 * The list's links. `last` only when the last page is known and reachable: not when the total is a
 * lower bound, nor when the last page lies beyond a search's window.
 */
function listLinks(path: string, query: UserListQuery, total: Total): UserListDocument['links'] {
  const countedPages = Math.max(1, Math.ceil(total.count / query.pageSize));
  const lastPage = pagedWithinWindow(query, total)
    ? Math.min(countedPages, Math.ceil(SEARCH_WINDOW / query.pageSize))
    : countedPages;
  const lastKnown = total.relation === 'eq' && lastPage === countedPages;
  const link = (pageNumber: number) => {
    const params = toUserListParams({ ...query, pageNumber }).toString();
    return params ? `${path}?${params}` : path;
  };
  return {
    self: link(query.pageNumber),
    first: link(1),
    ...(lastKnown ? { last: link(lastPage) } : {}),
    ...(query.pageNumber > 1 ? { prev: link(Math.min(query.pageNumber - 1, lastPage)) } : {}),
    ...(query.pageNumber < lastPage ? { next: link(query.pageNumber + 1) } : {}),
  };
}
