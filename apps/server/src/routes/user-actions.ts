import {
  errorDocumentSchema,
  JSON_API_MEDIA_TYPE,
  userDocumentSchema,
  userListPathSchema,
  userPathSchema,
} from '@users-admin/contract';
import {
  bulkActionDocumentSchema,
  bulkResultDocumentSchema,
  invitationDocumentSchema,
  jobDocumentSchema,
  type UserPatchDocument,
  userPatchDocumentSchema,
} from '@users-admin/contract/user-actions';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionStore } from '../auth/sessions.ts';
import type { Db } from '../db/database.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import type { Invitations, SentInvitation } from '../repositories/invitations-repository.ts';
import type { JobsRepository } from '../repositories/jobs-repository.ts';
import type { ActionAsked } from '../repositories/user-action-rules.ts';
import type { ActionInput } from '../repositories/user-actions-repository.ts';
import type { UsersRepository } from '../repositories/users-repository.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';
import { queueJob } from './jobs.ts';
import { entityTag, toResource } from './users.ts';

const USER_PATH = '/apis/accounts/api/v3/orgs/:org_id/users/:id';
const ifMatch = z
  .string()
  .max(1000)
  .optional()
  .describe('The ETag of GET …/users/{id}: the version the change is asked against');
const error = errorDocumentSchema;
const onUser = { tags: ['users'], params: userPathSchema };
const versioned = { ...onUser, headers: z.looseObject({ 'if-match': ifMatch }) };
const singleUserErrors = { 400: error, ...adminErrors, 404: error, 409: error, 412: error, 428: error };

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

type Outcome = Awaited<ReturnType<Invitations['act']>>;

/** A single user's result as the answer: nothing (done), 404, 429 with Retry-After, or 409 with the reason. */
function refuseIfSkipped(reply: FastifyReply, { results: [result], waits }: Outcome) {
  if (!result || result.result === 'done') return;
  const detail = result.detail ?? result.reason;
  if (result.reason === 'not_found') throw ApiProblem.notFound(detail ?? 'No such user.');
  if (result.reason === 'recently_invited') {
    reply.header('retry-after', String(waits.get(result.id) ?? 60));
    throw ApiProblem.of(429, { code: 'recently_invited', title: 'Too many invitations', detail });
  }
  throw ApiProblem.of(409, { code: result.reason ?? 'conflict', title: 'Not allowed', detail });
}

/** A PATCH as actions, the status first: disabling and demoting a System Admin at once counts them once. */
const patchActions = ({ status, is_system_admin }: UserPatchDocument['data']['attributes']): ActionAsked[] => [
  ...(status ? [{ action: status === 'disabled' ? 'disable' : 'enable' } as const] : []),
  ...(is_system_admin === undefined ? [] : [{ action: 'set_user_type' as const, isSystemAdmin: is_system_admin }]),
];

/** Each call's OpenAPI description and validation: a table, read by the routes below. */
const SCHEMAS = {
  patch: {
    summary: "Change a user's type or status",
    description:
      'Makes the user a System Admin or a User and/or disables or enables them, with If-Match: the ETag of GET ' +
      "…/users/{id}. Answers the user and its new ETag. Disabling ends the user's sessions here.",
    ...versioned,
    body: userPatchDocumentSchema,
    response: { 200: userDocumentSchema, ...singleUserErrors },
  },
  remove: {
    summary: 'Remove a user from the organisation',
    description:
      'The user leaves the organisation (their account stays, as it may belong to others) and their sessions here end; ' +
      'with If-Match.',
    ...versioned,
    response: { 204: z.null(), ...singleUserErrors },
  },
  invite: {
    summary: 'Send or resend an invitation',
    description:
      'The user becomes pending and gets an e-mail with a new link; the link before stops working. At most one a ' +
      'minute (429 recently_invited).',
    ...onUser,
    response: { 201: invitationDocumentSchema, ...adminErrors, 404: error, 409: error, 429: error },
  },
  bulk: {
    summary: 'Apply an action to users named by id, or to every matching user',
    description:
      'For at most 1,000 users named by ids, in one transaction: one result per user, done or skipped with a reason. ' +
      "With filter (the list's query string): a job over every matching user, 202 with its Location.",
    tags: ['users'],
    params: userListPathSchema,
    body: bulkActionDocumentSchema,
    response: { 200: bulkResultDocumentSchema, 202: jobDocumentSchema, 400: error, ...adminErrors },
  },
};

const inputOf = (request: FastifyRequest, orgId: string, ids: readonly string[]) => {
  return { orgId, actor: { id: assertAdminOf(request, orgId) }, ids, requestId: request.id };
};

/** A single user's call: the user of the path, at the versions of `If-Match` when `versioned`. */
const single = (request: FastifyRequest<{ Params: { org_id: string; id: string } }>, versioned: boolean) => ({
  ...inputOf(request, request.params.org_id, [request.params.id]),
  ...(versioned ? { expectedVersions: expectedVersions(request.headers['if-match']) } : {}),
});

/** Actions in one transaction, each on what the one before left; with `one`, a refusal answers, changing nothing. */
async function act(
  { db, invitations }: { db: Db; invitations: Invitations },
  request: FastifyRequest,
  input: Omit<ActionInput, 'action'>,
  asked: ActionAsked[],
  one?: FastifyReply,
) {
  const outcome = await db.transaction().execute(async (tx) => {
    let last: Outcome | undefined;
    for (const [index, action] of asked.entries()) {
      last = await invitations.act(tx, { ...input, ...action, ...(index > 0 ? { expectedVersions: undefined } : {}) });
      if (one) refuseIfSkipped(one, last);
    }
    return last as Outcome;
  });
  invitations.committed(outcome.invitations, request.log);
  const done = outcome.results.filter((result) => result.result === 'done').length;
  const action = asked.map((a) => a.action).join(',');
  request.log.info({ action, users: outcome.results.length, done }, 'users changed');
  return { ...outcome, done };
}

/** What an administrator does to one user (with If-Match) or many, each change ruled and audited in one transaction. */
export async function userActionsRoutes(
  app: FastifyInstance,
  options: { db: Db; sessions: SessionStore; users: UsersRepository; jobs: JobsRepository; invitations: Invitations },
) {
  // JSON:API's media type is JSON.
  app.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addHook('onRequest', requireSession(options.sessions));
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.patch(USER_PATH, { schema: SCHEMAS.patch }, async (request, reply) => {
    const input = single(request, true);
    const { id, attributes } = request.body.data;
    if (id !== undefined && id !== request.params.id) {
      const detail = 'data.id must be the id of the address.';
      throw ApiProblem.of(409, { code: 'id_mismatch', title: 'Conflict', detail });
    }
    await act(options, request, input, patchActions(attributes), reply);
    const user = await options.users.getUser(input.orgId, request.params.id);
    if (!user) throw ApiProblem.notFound('The organisation has no user with this id.');
    reply.header('cache-control', 'private, no-store').header('etag', entityTag(user.version));
    return reply.type(JSON_API_MEDIA_TYPE).send({ data: toResource(user) });
  });

  typed.delete(USER_PATH, { schema: SCHEMAS.remove }, async (request, reply) => {
    await act(options, request, single(request, true), [{ action: 'remove' }], reply);
    return reply.code(204).send(null);
  });

  typed.post(`${USER_PATH}/invitation`, { schema: SCHEMAS.invite }, async (request, reply) => {
    const { invitations } = await act(options, request, single(request, false), [{ action: 'invite' }], reply);
    // The link stays out of the answer: only the invitee's mailbox holds it.
    const [{ id, link: _link, ...attributes }] = invitations as [SentInvitation];
    const document = { data: { type: 'invitations' as const, id, attributes } };
    return reply.code(201).header('cache-control', 'private, no-store').type(JSON_API_MEDIA_TYPE).send(document);
  });

  typed.post('/apis/accounts/api/v3/orgs/:org_id/users/bulk', { schema: SCHEMAS.bulk }, async (request, reply) => {
    const { action, is_system_admin: isSystemAdmin, ids, filter } = request.body.data.attributes;
    const input = inputOf(request, request.params.org_id, ids ?? []);
    if (filter !== undefined) {
      const asked = { ...input, actorId: input.actor.id, action, isSystemAdmin, filter };
      return queueJob(request, reply, options.jobs, asked);
    }
    const { results, done } = await act(options, request, input, [{ action, isSystemAdmin }]);
    const attributes = { action, done, skipped: results.length - done, results };
    const document = { data: { type: 'bulk-results' as const, attributes } };
    return reply.header('cache-control', 'private, no-store').type(JSON_API_MEDIA_TYPE).send(document);
  });
}
