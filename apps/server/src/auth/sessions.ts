import { createHash, randomBytes } from 'node:crypto';
import type { SessionClaims } from '@users-admin/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, planOnce } from '../db/database.ts';

export const SESSION_COOKIE = 'sid';

export interface Session {
  claims: SessionClaims;
  accessTokenExpiresAt: Date;
  expiresAt: Date;
  /**
   * Whether the subject is an active System Admin of the session's organisation, when the lookup
   * asks for it (`withRole`); undefined otherwise.
   */
  isSystemAdmin?: boolean;
}

export type SessionLookup =
  | { state: 'none' }
  | { state: 'invalid' }
  | { state: 'expired'; session: Session }
  | { state: 'valid'; session: Session };

/**
 * The options of this server's own cookies: signed, out of scripts' reach, sent on top-level navigations.
 * Secure always on an https PUBLIC_URL; else 'auto', Secure when Fastify's request.protocol is https,
 * which only a trusted proxy (TRUST_PROXY) can make it.
 */
export function cookieOptions(publicUrl: string, path: string) {
  const secure: true | 'auto' = publicUrl.startsWith('https:') ? true : 'auto';
  return { httpOnly: true, sameSite: 'lax' as const, secure, path, signed: true };
}

/** Expired sessions removed by each sign-in, at most: a short range scan of the expiry index. */
const EXPIRED_PER_SIGN_IN = 100;

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

/** The statement that reads the session of a cookie's hash. Planned once per connection (`planOnce`). */
export const sessionLookup = (db: Db, idHash: string) =>
  db
    .selectFrom('sessions')
    .select(['org_id', 'account_sub', 'claims', 'access_token_expires_at', 'expires_at'])
    .where('id', '=', idHash);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The statement that reads whether a subject is an active System Admin of an organisation, keyed by it. */
const roleLookup = (db: Db, orgId: string, subject: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', '=', subject)
    .where('status', '=', 'active')
    .where('account_id', 'is not', null)
    .where('is_system_admin', '=', true);

async function isActiveSystemAdmin(db: Db, orgId: string, subject: string): Promise<boolean> {
  // A subject that is not a uuid names no membership (users.id is a uuid).
  if (!UUID.test(subject)) return false;
  return (await roleLookup(db, orgId, subject).executeTakeFirst()) !== undefined;
}

/**
 * Server-side sessions in the database: the cookie holds a random id (signed), the table holds
 * its hash, so any server instance can serve any request and a restart signs nobody out.
 * Long as a factory is: its methods share the database and the cookie's options.
 */
export function createSessionStore(db: Db, options: { publicUrl: string; ttlSeconds: number }) {
  const sessionCookie = cookieOptions(options.publicUrl, '/');

  const readCookie = (request: FastifyRequest): string | undefined | null => {
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  };

  // They run before every API answer and find one row by its key.
  planOnce(sessionLookup(db, ''));
  planOnce(roleLookup(db, '', ''));

  return {
    async create(
      reply: FastifyReply,
      values: { claims: SessionClaims; idToken: string | undefined; accessTokenExpiresAt: Date },
    ): Promise<void> {
      const id = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + options.ttlSeconds * 1000);
      const { sub, org_id } = values.claims;
      // The sign-in is recorded with the session it opens, or neither is.
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('sessions')
          .values({
            id: hashId(id),
            account_sub: sub,
            org_id,
            claims: JSON.stringify(values.claims),
            id_token: values.idToken ?? null,
            access_token_expires_at: values.accessTokenExpiresAt,
            expires_at: expiresAt,
          })
          .execute();
        if (UUID.test(sub)) {
          await tx
            .updateTable('users')
            .set({ last_sign_in_at: new Date() })
            .where('org_id', '=', org_id)
            .where('id', '=', sub)
            .execute();
        }
      });
      // Expired sessions are never valid again (lookup, on this process's clock): each sign-in takes
      // a few of them away, leaving those another sign-in is taking (skip locked). The session is
      // saved already: a failed clean-up must not fail the sign-in.
      await db
        .deleteFrom('sessions')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('sessions')
            .select('id')
            .where('expires_at', '<=', new Date())
            .limit(EXPIRED_PER_SIGN_IN)
            .forUpdate()
            .skipLocked(),
        )
        .execute()
        .catch(() => {});
      reply.setCookie(SESSION_COOKIE, id, { ...sessionCookie, expires: expiresAt });
    },

    /**
     * The session of the request's cookie. With `withRole`, also whether its subject is an active
     * System Admin of its organisation.
     */
    async lookup(request: FastifyRequest, options: { withRole?: boolean } = {}): Promise<SessionLookup> {
      const id = readCookie(request);
      if (id === undefined) return { state: 'none' };
      if (id === null) return { state: 'invalid' };
      const row = await sessionLookup(db, hashId(id)).executeTakeFirst();
      if (!row || row.expires_at.getTime() <= Date.now()) return { state: 'invalid' };
      const session: Session = {
        claims: row.claims as unknown as SessionClaims,
        accessTokenExpiresAt: row.access_token_expires_at,
        expiresAt: row.expires_at,
        ...(options.withRole ? { isSystemAdmin: await isActiveSystemAdmin(db, row.org_id, row.account_sub) } : {}),
      };
      return session.accessTokenExpiresAt.getTime() <= Date.now()
        ? { state: 'expired', session }
        : { state: 'valid', session };
    },

    /** Ends the session at the server (a copied cookie stops working) and returns its id token. */
    async destroy(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
      const id = readCookie(request);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      if (!id) return undefined;
      const row = await db.deleteFrom('sessions').where('id', '=', hashId(id)).returning('id_token').executeTakeFirst();
      return row?.id_token ?? undefined;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
