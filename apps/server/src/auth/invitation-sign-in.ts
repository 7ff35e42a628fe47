import type { SupportedLocale } from '@users-admin/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Provider } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { asFastifySeesIt } from '../plugins/identity-provider.ts';
import {
  acceptInvitation,
  findInvitation,
  type InvitationLookup,
  type InvitationProblem,
} from '../repositories/invitation-acceptance.ts';
import { tokenOrg } from '../repositories/invitations-repository.ts';
import { fill, INVITATION_MESSAGES } from './invitation-messages.ts';
import { cookieOptions } from './sessions.ts';
import { html, languageOf, page, sendHtml } from './sign-in-page.ts';

const PASSWORD_MIN_LENGTH = 8;
/** Holds an opened link's token while the invitee signs in (signed, HttpOnly, an hour). */
const COOKIE = 'invitation';

type Invitee = { language: SupportedLocale; orgName: string; email: string };

/** The embedded identity provider's page where an invitee chooses their password. */
export function renderChoosePasswordPage(options: Invitee & { action: string; error?: 'tooShort' | 'mismatch' }) {
  const texts = INVITATION_MESSAGES[options.language];
  const min = PASSWORD_MIN_LENGTH;
  const values = { org: options.orgName, address: options.email, min: String(min) };
  return page(
    options.language,
    texts.title,
    html`${options.error ? html`<p role="alert">${fill(texts[options.error], values)}</p>` : ''}
<p>${fill(texts.intro, values)}</p>
<form method="post" action="${options.action}">
<input type="hidden" name="username" autocomplete="username" value="${options.email}">
<label for="password">${texts.password}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${min}" required autofocus>
<label for="confirm">${texts.confirm}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${min}" required>
<button type="submit">${texts.submit}</button>
</form>`,
  );
}

/** A link that no longer works: why, and what to do. */
export function renderInvitationProblemPage(language: SupportedLocale, problem: InvitationProblem) {
  const texts = INVITATION_MESSAGES[language];
  const signIn = problem === 'used' ? html`<p><a href="/">${texts.signIn}</a></p>` : '';
  return page(language, texts[`${problem}Title`], html`<p role="alert">${texts[problem]}</p>${signIn}`);
}

const sendProblemPage = (reply: FastifyReply, found: Exclude<InvitationLookup, { state: 'valid' }>) =>
  sendHtml(reply, renderInvitationProblemPage(found.language ?? languageOf(reply.request), found.state), 410);

function openedToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  return unsigned?.valid && unsigned.value ? unsigned.value : undefined;
}

/** The link: keeps its token in a cookie for the sign-in it starts (a password to choose, or an external issuer's). */
export async function invitationLinkRoute(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  app.get<{ Params: { token: string } }>('/invitations/:token', { compress: false }, async (request, reply) => {
    const found = await findInvitation(db, request.params.token);
    if (found.state !== 'valid') return sendProblemPage(reply, found);
    reply.setCookie(COOKIE, request.params.token, { ...cookieOptions(config.publicUrl, '/'), maxAge: 3600 });
    const { language, orgName: org, email: address } = found;
    if (config.externalIssuer) {
      // The invitee signs in there with the invited address.
      const texts = INVITATION_MESSAGES[language];
      const form = html`<form method="get" action="/auth/start"><button type="submit">${texts.signIn}</button></form>`;
      const body = html`<p>${fill(texts.external, { org, address })}</p>${form}`;
      return sendHtml(reply, page(language, texts.title, body));
    }
    // `prompt=login`: a sign-in already made at the provider must not skip the invitee's.
    return reply.redirect(`/auth/start?${new URLSearchParams({ prompt: 'login', ui_locales: language })}`, 303);
  });
}

/** An external sign-in by the invited address accepts the invitation this browser opened (the issuer vouched). */
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
  return renderChoosePasswordPage({ ...found, action: `/interaction/${uid}/invitation` });
}

const passwordBody = z.object({ password: z.string().max(1024), confirm: z.string().max(1024) });

/** The provider's step for an invitee, among its interactions (which read forms): the password chosen, signed in. */
export function invitationInteraction(app: FastifyInstance, { db, provider }: { db: Db; provider: Provider }) {
  app.post<{ Params: { uid: string } }>('/interaction/:uid/invitation', { compress: false }, async (request, reply) => {
    const details = await provider.interactionDetails(asFastifySeesIt(request), reply.raw);
    const token = openedToken(request) ?? '';
    const found = await findInvitation(db, token);
    if (found.state !== 'valid') return sendProblemPage(reply, found);
    const { password = '', confirm } = passwordBody.safeParse(request.body).data ?? {};
    const error = password.length < PASSWORD_MIN_LENGTH ? 'tooShort' : password !== confirm ? 'mismatch' : undefined;
    if (error) {
      const action = `/interaction/${details.uid}/invitation`;
      return sendHtml(reply, renderChoosePasswordPage({ ...found, action, error }), 400);
    }
    const accepted = await acceptInvitation(db, { token, password, requestId: request.id });
    if (accepted.state !== 'valid') return sendProblemPage(reply, accepted);
    reply.clearCookie(COOKIE, { path: '/' });
    const login = { login: { accountId: accepted.userId } };
    const options = { mergeWithLastSubmission: false };
    return reply.redirect(await provider.interactionResult(asFastifySeesIt(request), reply.raw, login, options), 303);
  });
}
