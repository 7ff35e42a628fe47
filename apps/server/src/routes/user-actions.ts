import {
  errorDocumentSchema,
  JSON_API_MEDIA_TYPE,
  userDocumentSchema,
  userListPathSchema,
  userPathSchema,
} from '@users-admin/contract';
import {
  type BulkResultDocument,
  bulkActionDocumentSchema,
  bulkResultDocumentSchema,
  jobDocumentSchema,
  type UserActionResult,
  type UserPatchDocument,
  userPatchDocumentSchema,
} from '@users-admin/contract/user-actions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/database.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import type { JobsRepository } from '../repositories/jobs-repository.ts';
import type { ActionAsked } from '../repositories/user-action-rules.ts';
import {
  type ActionInput,
  applyAction,
  applyActionInTransaction,
  StaleVersion,
} from '../repositories/user-actions-repository.ts';
import type { UsersRepository } from '../repositories/users-repository.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';
import type { Invitations } from './invitations.ts';
import { queueJob } from './jobs.ts';
import { entityTag, toResource } from './users.ts';

const USER_PATH = '/apis/accounts/api/v3/orgs/:org_id/users/:id';
const ifMatchHeaders = z.looseObject({
  'if-match': z
    .string()
    .max(1000)
    .optional()
    .describe('The ETag of GET …/users/{id}: the version the change is asked against'),
});
const singleUserErrors = {
  400: errorDocumentSchema,
  ...adminErrors,
  404: errorDocumentSchema,
  409: errorDocumentSchema,
  412: errorDocumentSchema,
  428: errorDocumentSchema,
};

/** The versions an `If-Match` names (`*`: any); 428 without one, so that no change is made blind. */
function expectedVersions(header: string | undefined): string[] | undefined {
  if (header === undefined || header.trim() === '') {
    const detail =
      'Send If-Match with the ETag of GET …/users/{id}, so that a change made meanwhile is not overwritten.';
    throw ApiProblem.of(428, { code: 'precondition_required', title: 'Precondition required', detail });
  }
  if (header.trim() === '*') return undefined;
  // Strong tags only (RFC 9110: If-Match compares strongly); a weak or malformed one matches no version.
  return header.split(',').flatMap((tag) => /^\s*"(\d{1,19})"\s*$/.exec(tag)?.[1] ?? []);
}

/** A single user's result as the answer: nothing (done), 404 or 409 with the reason in words. */
export function throwIfSkipped(result: UserActionResult | undefined) {
  if (!result || result.result === 'done') return;
  const detail = result.detail ?? result.reason;
  if (result.reason === 'not_found') throw ApiProblem.notFound(detail ?? 'No such user.');
  throw ApiProblem.of(409, { code: result.reason ?? 'conflict', title: 'Not allowed', detail });
}

/** A user who changed since the version asked against: 412. */
function asAnswer(error: unknown): never {
  if (error instanceof StaleVersion) {
    const detail = 'The user changed since you read them: read them again, then retry.';
    throw ApiProblem.of(412, { code: 'precondition_failed', title: 'Precondition failed', detail });
  }
  throw error;
}

/** A PATCH as actions, the status first: disabling and demoting a System Admin at once counts them once. */
function patchActions(attributes: UserPatchDocument['data']['attributes']): ActionAsked[] {
  const actions: ActionAsked[] = [];
  if (attributes.status !== undefined)
    actions.push({ action: attributes.status === 'disabled' ? 'disable' : 'enable' });
  if (attributes.is_system_admin !== undefined) {
    actions.push({ action: 'set_user_type', isSystemAdmin: attributes.is_system_admin });
  }
  return actions;
}

/** Applies actions to one user in one transaction; the first refusal answers and changes nothing. */
async function changeOneUser(db: Db, request: FastifyRequest, base: Omit<ActionInput, 'action'>, asked: ActionAsked[]) {
  await db
    .transaction()
    .execute(async (tx) => {
      for (const [index, action] of asked.entries()) {
        const input = { ...base, ...action, ...(index > 0 ? { expectedVersions: undefined } : {}) };
        const { results } = await applyActionInTransaction(tx, input);
        throwIfSkipped(results[0]);
      }
    })
    .catch(asAnswer);
  request.log.info({ action: asked.map((a) => a.action).join(','), users: 1 }, 'users changed');
}

/**
 * `PATCH` and `DELETE …/users/{id}` (with `If-Match`) and `POST …/users/bulk` by ids: what an
 * administrator does to users, each change checked by the rules and audited in its transaction.
 */
export async function userActionsRoutes(
  app: FastifyInstance,
  options: {
    db: Db;
    sessions: SessionStore;
    users: UsersRepository;
    jobs: JobsRepository;
    invitations: Invitations;
  },
) {
  const { db, sessions, users } = options;
  // JSON:API's media type is JSON.
  app.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = (request: FastifyRequest, orgId: string, id: string, ifMatch: string | undefined) => ({
    orgId,
    actor: { id: assertAdminOf(request, orgId) },
    ids: [id],
    requestId: request.id,
    expectedVersions: expectedVersions(ifMatch),
  });

  typed.patch(
    USER_PATH,
    {
      schema: {
        summary: "Change a user's type or status",
        description:
          'Makes the user a System Admin or a User (is_system_admin) and/or disables or enables them (status "disabled" ' +
          'or "active"), with If-Match: the ETag of GET …/users/{id}. Answers the user and its new ETag; 428 without ' +
          'If-Match, 412 when the user changed meanwhile, 409 with the reason as code when a rule refuses (self, ' +
          "last_system_admin, third_party, not_disabled, unchanged). Disabling ends the user's sessions here.",
        tags: ['users'],
        params: userPathSchema,
        headers: ifMatchHeaders,
        body: userPatchDocumentSchema,
        response: { 200: userDocumentSchema, ...singleUserErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      const input = base(request, orgId, id, request.headers['if-match']);
      const bodyId = request.body.data.id;
      if (bodyId !== undefined && bodyId !== id) {
        const detail = 'data.id must be the id of the address.';
        throw ApiProblem.of(409, { code: 'id_mismatch', title: 'Conflict', detail });
      }
      await changeOneUser(db, request, input, patchActions(request.body.data.attributes));
      const user = await users.getUser(orgId, id);
      if (!user) throw ApiProblem.notFound('The organisation has no user with this id.');
      reply.header('cache-control', 'private, no-store').header('etag', entityTag(user.version));
      return reply.type(JSON_API_MEDIA_TYPE).send({ data: toResource(user) });
    },
  );

  typed.delete(
    USER_PATH,
    {
      schema: {
        summary: 'Remove a user from the organisation',
        description:
          'The user leaves the organisation (their account stays, as it may belong to others) and their sessions here ' +
          'end; with If-Match, as PATCH. 409 with the reason as code when a rule refuses (self, last_system_admin, third_party).',
        tags: ['users'],
        params: userPathSchema,
        headers: ifMatchHeaders,
        response: { 204: z.null(), ...singleUserErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      const input = base(request, orgId, id, request.headers['if-match']);
      await changeOneUser(db, request, input, [{ action: 'remove' }]);
      return reply.code(204).send(null);
    },
  );

  typed.post(
    '/apis/accounts/api/v3/orgs/:org_id/users/bulk',
    {
      schema: {
        summary: 'Apply an action to users named by id, or to every matching user',
        description:
          'invite, set_user_type (with is_system_admin), disable, enable or remove, for at most 1,000 users named by ids, in one ' +
          'transaction: one result per user, done or skipped with a reason code and words. Users the action does not ' +
          "fit are skipped, never the whole call. With filter (the list's query string) instead: a job over every " +
          'matching user, answered 202 with its Location (GET …/jobs/{id}).',
        tags: ['users'],
        params: userListPathSchema,
        body: bulkActionDocumentSchema,
        response: { 200: bulkResultDocumentSchema, 202: jobDocumentSchema, 400: errorDocumentSchema, ...adminErrors },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const orgId = request.params.org_id;
      const actorId = assertAdminOf(request, orgId);
      const { action, is_system_admin: isSystemAdmin, ids, filter } = request.body.data.attributes;
      if (filter !== undefined) {
        return queueJob(request, reply, options.jobs, { orgId, actorId, action, isSystemAdmin, filter });
      }
      const input = { orgId, actor: { id: actorId }, ids: ids ?? [], requestId: request.id };
      const results =
        action === 'invite'
          ? (await options.invitations.invite(input, request.log)).results
          : await applyAction(db, { ...input, action, isSystemAdmin }).catch(asAnswer);
      const done = results.filter((result) => result.result === 'done').length;
      request.log.info({ action, users: results.length, done }, 'users changed');
      const document: BulkResultDocument = {
        data: { type: 'bulk-results', attributes: { action, done, skipped: results.length - done, results } },
      };
      reply.header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document);
    },
  );
}
