import { errorDocumentSchema, JSON_API_MEDIA_TYPE, userPathSchema } from '@users-admin/contract';
import { type InvitationDocument, invitationDocumentSchema } from '@users-admin/contract/user-actions';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { renderExternalInvitationPage } from '../auth/invitation-pages.ts';
import { keepOpenedToken, sendProblemPage } from '../auth/invitation-sign-in.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { sendHtml } from '../auth/sign-in-page.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import { createMailSender } from '../mail/mail-sender.ts';
import { findInvitation } from '../repositories/invitation-acceptance.ts';
import {
  type InvitationSettings,
  type InviteInput,
  inviteInTransaction,
  type SentInvitation,
} from '../repositories/invitations-repository.ts';
import { reasonInWords } from '../repositories/user-action-rules.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';
import { throwIfSkipped } from './user-actions.ts';

/** Their mail is sent now; without SMTP_URL it stays in the outbox and each link is logged. */
function invitationsCommitted(invitations: SentInvitation[], log: FastifyBaseLogger, mail?: { wake(): void }) {
  if (mail && invitations.length > 0) mail.wake();
  for (const { userId, email, link } of mail ? [] : invitations) {
    log.info({ user: userId, to: email, link }, 'invitation link (no SMTP_URL: its mail stays in the outbox)');
  }
}

/**
 * What a job's batch needs to invite: the settings, and once it commits, the links logged without
 * SMTP_URL (with it, the mail sender finds the mail on its next look).
 */
export function invitationsForJobs(config: Config, log: FastifyBaseLogger) {
  const { smtpUrl, publicUrl, invitationTtlSeconds: ttlSeconds } = config;
  return {
    settings: { publicUrl, ttlSeconds },
    afterCommit: (sent: SentInvitation[]) => invitationsCommitted(sent, log, smtpUrl ? { wake() {} } : undefined),
  };
}

/** Invitations' settings, their mail sender (with SMTP_URL), and what follows their commit. */
export function createInvitations(db: Db, config: Config, log: FastifyBaseLogger) {
  const { smtpUrl, mailFrom: from, publicUrl, invitationTtlSeconds: ttlSeconds } = config;
  const mail = smtpUrl ? createMailSender(db, { smtpUrl, from, log }) : undefined;
  const settings: InvitationSettings = { publicUrl, ttlSeconds };
  const afterCommit = (invitations: SentInvitation[], requestLog: FastifyBaseLogger) =>
    invitationsCommitted(invitations, requestLog, mail);
  /** Invites in one transaction; once committed, the mail leaves (or each link is logged). */
  const invite = async (input: InviteInput, requestLog: FastifyBaseLogger) => {
    const outcome = await db.transaction().execute((tx) => inviteInTransaction(tx, settings, input));
    afterCommit(outcome.invitations, requestLog);
    return outcome;
  };
  return { settings, mail, afterCommit, invite };
}
export type Invitations = ReturnType<typeof createInvitations>;

/** One user's invitation, in its transaction: the document, or why not (404, 409, 429 with Retry-After). */
async function inviteOne(invitations: Invitations, reply: FastifyReply, input: InviteInput) {
  const outcome = await invitations.invite(input, reply.log);
  const [result] = outcome.results;
  if (result?.reason === 'recently_invited') {
    reply.header('retry-after', String(outcome.waits.get(result.id) ?? 60));
    const detail = reasonInWords('recently_invited', 'invite');
    throw ApiProblem.of(429, { code: 'recently_invited', title: 'Too many invitations', detail });
  }
  throwIfSkipped(result);
  const [invitation] = outcome.invitations;
  if (!invitation) throw ApiProblem.notFound('The organisation has no user with this id.');
  const { id, userId: user_id, email, expiresAt, createdAt } = invitation;
  const attributes = { user_id, email, expires_at: expiresAt.toISOString(), created_at: createdAt.toISOString() };
  return { data: { type: 'invitations', id, attributes } } satisfies InvitationDocument;
}

/**
 * `POST …/users/{id}/invitation` (send or resend) and the link, `/invitations/{token}`: it keeps the
 * token in a cookie and starts a sign-in, where the embedded identity provider asks for a password
 * (auth/invitation-sign-in.ts) or an external issuer signs the invitee in.
 */
export async function invitationsRoutes(
  app: FastifyInstance,
  options: { db: Db; sessions: SessionStore; invitations: Invitations; config: Config },
) {
  const { db, invitations } = options;
  const errors = { 404: errorDocumentSchema, 409: errorDocumentSchema, 429: errorDocumentSchema };
  const description =
    'An inactive user is invited, a pending one invited again: the user becomes pending and gets an e-mail with a new ' +
    'link; the link before stops working. 409 third_party or not_invitable; 429 recently_invited (one a minute).';
  app.withTypeProvider<ZodTypeProvider>().post(
    '/apis/accounts/api/v3/orgs/:org_id/users/:id/invitation',
    {
      schema: {
        summary: 'Send or resend an invitation',
        description,
        tags: ['users'],
        params: userPathSchema,
        response: { 201: invitationDocumentSchema, ...adminErrors, ...errors },
      },
      onRequest: requireSession(options.sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      const input = { orgId, actor: { id: assertAdminOf(request, orgId) }, ids: [id], requestId: request.id };
      const document = await inviteOne(invitations, reply, input);
      reply.code(201).header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(document);
    },
  );

  app.get<{ Params: { token: string } }>('/invitations/:token', { compress: false }, async (request, reply) => {
    const found = await findInvitation(db, request.params.token);
    if (found.state !== 'valid') return sendProblemPage(reply, request, found);
    keepOpenedToken(reply, options.config.publicUrl, request.params.token);
    const { language, orgName, email } = found;
    if (options.config.externalIssuer)
      return sendHtml(reply, renderExternalInvitationPage({ language, orgName, email }));
    // `prompt=login`: a sign-in already made at the provider must not skip the invitee's.
    return reply.redirect(`/auth/start?${new URLSearchParams({ prompt: 'login', ui_locales: language })}`, 303);
  });
}
