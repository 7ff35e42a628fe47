import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Provider } from 'oidc-provider';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { asFastifySeesIt } from '../plugins/identity-provider.ts';
import { acceptInvitation, findInvitation, type InvitationLookup } from '../repositories/invitation-acceptance.ts';
import { tokenOrg } from '../repositories/invitations-repository.ts';
import { PASSWORD_MIN_LENGTH, renderChoosePasswordPage, renderInvitationProblemPage } from './invitation-pages.ts';
import { cookieOptions } from './sessions.ts';
import { languageOf, sendHtml } from './sign-in-page.ts';

/** Holds an opened link's token while the invitee signs in (signed, HttpOnly, an hour). */
const COOKIE = 'invitation';

export const keepOpenedToken = (reply: FastifyReply, publicUrl: string, token: string) =>
  reply.setCookie(COOKIE, token, { ...cookieOptions(publicUrl, '/'), maxAge: 3600 });

function openedToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  return unsigned?.valid && unsigned.value ? unsigned.value : undefined;
}

/** A link that no longer works: a page that says why and what to do. */
export const sendProblemPage = (
  reply: FastifyReply,
  request: FastifyRequest,
  found: Exclude<InvitationLookup, { state: 'valid' }>,
) => sendHtml(reply, renderInvitationProblemPage(found.language ?? languageOf(request), found.state), 410);

/**
 * With an external issuer: a sign-in of no active user, by the invited address of the invitation
 * this browser opened, accepts it (the issuer vouched for the address). Whether it did.
 */
export const acceptOnExternalSignIn = (db: Db) => async (request: FastifyRequest, orgId: string, email: string) => {
  const token = openedToken(request);
  if (!token || tokenOrg(token) !== orgId) return false;
  return (await acceptInvitation(db, { token, email, requestId: request.id })).state === 'valid';
};

/** The page the provider's sign-in step shows instead of its form while a working invitation's cookie is there. */
export async function invitationSignInPage(db: Db, request: FastifyRequest, uid: string) {
  const token = openedToken(request);
  const found = token ? await findInvitation(db, token) : undefined;
  if (found?.state !== 'valid') return undefined;
  const { language, orgName, email } = found;
  return renderChoosePasswordPage({ language, action: `/interaction/${uid}/invitation`, orgName, email });
}

const passwordBody = z.object({ password: z.string().max(1024), confirm: z.string().max(1024) });

/** The provider's step for an invitee, among its interactions (which read forms): the password chosen, signed in. */
export function invitationInteraction(app: FastifyInstance, { db, provider }: { db: Db; provider: Provider }) {
  const asSeen = asFastifySeesIt;
  app.post<{ Params: { uid: string } }>('/interaction/:uid/invitation', { compress: false }, async (request, reply) => {
    const details = await provider.interactionDetails(asSeen(request), reply.raw);
    const token = openedToken(request) ?? '';
    const found = await findInvitation(db, token);
    if (found.state !== 'valid') return sendProblemPage(reply, request, found);
    const body = passwordBody.safeParse(request.body);
    const password = body.data?.password ?? '';
    const tooShort = password.length < PASSWORD_MIN_LENGTH;
    const error = tooShort ? 'tooShort' : password !== body.data?.confirm ? 'mismatch' : undefined;
    if (error) {
      const { language, orgName, email } = found;
      const action = `/interaction/${details.uid}/invitation`;
      return sendHtml(reply, renderChoosePasswordPage({ language, action, orgName, email, error }), 400);
    }
    const accepted = await acceptInvitation(db, { token, password, requestId: request.id });
    if (accepted.state !== 'valid') return sendProblemPage(reply, request, accepted);
    reply.clearCookie(COOKIE, { path: '/' });
    const login = { login: { accountId: accepted.userId } };
    const next = await provider.interactionResult(asSeen(request), reply.raw, login, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(next, 303);
  });
}
