import { errorDocumentSchema, JSON_API_MEDIA_TYPE, userPathSchema } from '@users-admin/contract';
import { type InvitationDocument, invitationDocumentSchema } from '@users-admin/contract/user-actions';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Provider } from 'oidc-provider';
import { z } from 'zod';
import {
  PASSWORD_MIN_LENGTH,
  renderChoosePasswordPage,
  renderExternalInvitationPage,
  renderInvitationProblemPage,
} from '../auth/invitation-pages.ts';
import { cookieOptions, type SessionStore } from '../auth/sessions.ts';
import { languageOf, sendHtml } from '../auth/sign-in-page.ts';
import type { Db } from '../db/database.ts';
import { ApiProblem } from '../lib/api-errors.ts';
import type { MailSender } from '../mail/mail-sender.ts';
import { acceptInvitation, findInvitation, type InvitationLookup } from '../repositories/invitation-acceptance.ts';
import {
  type InvitationSettings,
  inviteInTransaction,
  type SentInvitation,
  tokenOrg,
} from '../repositories/invitations-repository.ts';
import { reasonInWords } from '../repositories/user-action-rules.ts';
import { adminErrors, assertAdminOf, requireSession } from './admin-access.ts';
import { throwIfSkipped } from './user-actions.ts';

/** Holds an opened link's token while the invitee signs in; the sign-in pages read it. */
export const INVITATION_COOKIE = 'invitation';
const INVITATION_COOKIE_SECONDS = 3600;

export interface Invitations {
  settings: InvitationSettings;
  /** Once the invitations' transaction committed: their mail is sent now, or (no SMTP_URL) their links logged. */
  afterCommit(invitations: SentInvitation[], log: FastifyBaseLogger): void;
}

export function createInvitations(settings: InvitationSettings, mail: MailSender | undefined): Invitations {
  return {
    settings,
    afterCommit(invitations, log) {
      if (invitations.length === 0) return;
      if (mail) return mail.wake();
      for (const { userId, email, link } of invitations) {
        log.info({ user: userId, to: email, link }, 'invitation link (no SMTP_URL: its mail stays in the outbox)');
      }
    },
  };
}

const toDocument = (invitation: SentInvitation): InvitationDocument => ({
  data: {
    type: 'invitations',
    id: invitation.id,
    attributes: {
      user_id: invitation.userId,
      email: invitation.email,
      expires_at: invitation.expiresAt.toISOString(),
      created_at: invitation.createdAt.toISOString(),
    },
  },
});

const problemPage = (
  reply: FastifyReply,
  request: FastifyRequest,
  found: Exclude<InvitationLookup, { state: 'valid' }>,
) => sendHtml(reply, renderInvitationProblemPage(found.language ?? languageOf(request), found.state), 410);

/**
 * `POST …/users/{id}/invitation` (send or resend) and the link's page, `/invitations/{token}`:
 * it keeps the token in a cookie and starts a sign-in, where the embedded identity provider asks
 * for a password (`invitationInteraction`) or an external issuer signs the invitee in.
 */
export async function invitationsRoutes(
  app: FastifyInstance,
  options: { db: Db; sessions: SessionStore; invitations: Invitations; publicUrl: string; externalIssuer: boolean },
) {
  const { db, sessions, invitations } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    '/apis/accounts/api/v3/orgs/:org_id/users/:id/invitation',
    {
      schema: {
        summary: 'Send or resend an invitation',
        description:
          'An inactive user is invited, a pending one invited again: the user becomes pending and gets an e-mail with ' +
          'a new link, and the link before stops working. 409 third_party or not_invitable; 429 recently_invited ' +
          '(one invitation a minute to a user) with Retry-After.',
        tags: ['users'],
        params: userPathSchema,
        response: {
          201: invitationDocumentSchema,
          ...adminErrors,
          404: errorDocumentSchema,
          409: errorDocumentSchema,
          429: errorDocumentSchema,
        },
      },
      onRequest: requireSession(sessions),
    },
    async (request, reply) => {
      const { org_id: orgId, id } = request.params;
      const input = { orgId, actor: { id: assertAdminOf(request, orgId) }, ids: [id], requestId: request.id };
      const outcome = await db.transaction().execute((tx) => inviteInTransaction(tx, invitations.settings, input));
      const [result] = outcome.results;
      if (result?.reason === 'recently_invited') {
        reply.header('retry-after', String(outcome.waits.get(id) ?? 60));
        const detail = reasonInWords('recently_invited', 'invite');
        throw ApiProblem.of(429, { code: 'recently_invited', title: 'Too many invitations', detail });
      }
      throwIfSkipped(result);
      const [invitation] = outcome.invitations;
      if (!invitation) throw ApiProblem.notFound('The organisation has no user with this id.');
      invitations.afterCommit(outcome.invitations, request.log);
      reply.code(201).header('cache-control', 'private, no-store');
      return reply.type(JSON_API_MEDIA_TYPE).send(toDocument(invitation));
    },
  );

  app.get<{ Params: { token: string } }>('/invitations/:token', { compress: false }, async (request, reply) => {
    const { token } = request.params;
    const found = await findInvitation(db, token);
    if (found.state !== 'valid') return problemPage(reply, request, found);
    const cookie = { ...cookieOptions(options.publicUrl, '/'), maxAge: INVITATION_COOKIE_SECONDS };
    reply.setCookie(INVITATION_COOKIE, token, cookie);
    if (options.externalIssuer) {
      const page = { language: found.language, orgName: found.orgName, email: found.email };
      return sendHtml(reply, renderExternalInvitationPage(page));
    }
    // A sign-in at the provider: `prompt=login` so that one already made there does not skip the invitee's.
    const start = new URLSearchParams({ prompt: 'login', ui_locales: found.language });
    return reply.redirect(`/auth/start?${start}`, 303);
  });
}

/** The token of the invitation this browser opened, if its cookie is there and untampered. */
export function openedToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[INVITATION_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  return unsigned?.valid && unsigned.value ? unsigned.value : undefined;
}

/**
 * With an external issuer: a sign-in of no active user, by the invited address of the invitation
 * this browser opened, accepts it (the issuer vouched for the address). Whether it did.
 */
export function acceptOnExternalSignIn(db: Db) {
  return async (request: FastifyRequest, orgId: string, email: string): Promise<boolean> => {
    const token = openedToken(request);
    if (!token || tokenOrg(token) !== orgId) return false;
    const accepted = await acceptInvitation(db, { token, email, requestId: request.id });
    return accepted.state === 'valid';
  };
}

const passwordBody = z.object({ password: z.string().max(1024), confirm: z.string().max(1024) });

/**
 * The embedded identity provider's step for an invitee, registered among its interactions (which
 * read forms): the sign-in page becomes "choose a password" while a working invitation's cookie is
 * there (`invitationSignInPage`); accepting it signs them in.
 */
export function invitationInteraction(
  app: FastifyInstance,
  options: { db: Db; provider: Provider; asSeen(request: FastifyRequest): FastifyRequest['raw'] },
) {
  const { db, provider, asSeen } = options;
  app.post<{ Params: { uid: string } }>('/interaction/:uid/invitation', { compress: false }, async (request, reply) => {
    const details = await provider.interactionDetails(asSeen(request), reply.raw);
    const token = openedToken(request) ?? '';
    const found = await findInvitation(db, token);
    if (found.state !== 'valid') return problemPage(reply, request, found);
    const body = passwordBody.safeParse(request.body);
    const password = body.success ? body.data.password : '';
    const tooShort = password.length < PASSWORD_MIN_LENGTH;
    const error = tooShort ? 'tooShort' : password !== body.data?.confirm ? 'mismatch' : undefined;
    if (error) {
      const { language, orgName, email } = found;
      const action = `/interaction/${details.uid}/invitation`;
      return sendHtml(reply, renderChoosePasswordPage({ language, action, orgName, email, error }), 400);
    }
    const accepted = await acceptInvitation(db, { token, password, requestId: request.id });
    if (accepted.state !== 'valid') return problemPage(reply, request, accepted);
    reply.clearCookie(INVITATION_COOKIE, { path: '/' });
    const login = { login: { accountId: accepted.userId } };
    const redirectTo = await provider.interactionResult(asSeen(request), reply.raw, login, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(redirectTo, 303);
  });
}

/** The page the provider's sign-in step shows instead of its form, for an invitee; undefined otherwise. */
export async function invitationSignInPage(db: Db, request: FastifyRequest, uid: string) {
  const token = openedToken(request);
  const found = token ? await findInvitation(db, token) : undefined;
  if (found?.state !== 'valid') return undefined;
  const action = `/interaction/${uid}/invitation`;
  return renderChoosePasswordPage({ language: found.language, action, orgName: found.orgName, email: found.email });
}
