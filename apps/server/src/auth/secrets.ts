import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Db } from '../db/database.ts';

/**
 * Returns the named secret, creating it once: secrets live in the database so that every
 * server instance signs and verifies with the same keys, and a restart keeps them.
 */
async function getOrCreateSecret(db: Db, name: string, create: () => string): Promise<string> {
  const stored = () => db.selectFrom('app_secrets').select('value').where('name', '=', name);
  const existing = await stored().executeTakeFirst();
  if (existing) return existing.value;
  // Another instance may be creating it too: the first one written wins.
  await db
    .insertInto('app_secrets')
    .values({ name, value: create() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await stored().executeTakeFirstOrThrow()).value;
}

export interface Secrets {
  cookieSecret: string;
  providerCookieKeys: string[];
  signingKey: JWK;
  clientSecret: string;
}

export async function loadSecrets(db: Db, configuredCookieSecret: string | undefined): Promise<Secrets> {
  const random = () => randomBytes(32).toString('base64url');
  const cookieSecret = configuredCookieSecret ?? (await getOrCreateSecret(db, 'cookie_secret', random));
  const providerCookieKey = await getOrCreateSecret(db, 'oidc_cookie_key', random);
  const clientSecret = await getOrCreateSecret(db, 'oidc_client_secret', random);
  const signingKey = await getOrCreateSecret(db, 'oidc_signing_key', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: random().slice(0, 16),
      use: 'sig',
      alg: 'RS256',
    });
  });
  return {
    cookieSecret,
    providerCookieKeys: [providerCookieKey],
    signingKey: JSON.parse(signingKey) as JWK,
    clientSecret,
  };
}
