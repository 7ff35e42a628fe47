import type { Db } from '../../src/db/database.ts';
import { createAccount } from '../../src/db/seed.ts';
import { type CookieJar, signIn } from './sign-in.ts';

/**
 * A System Admin of the organisation, `admin@<slug>.example` with the password `admin`, signed in
 * through the real flow: the cookie jar of their session.
 */
export async function signedInAdminOf(
  db: Db,
  baseUrl: string,
  org: { id: string; slug: string; name: string },
): Promise<CookieJar> {
  const email = `admin@${org.slug}.example`;
  await createAccount(db, {
    email,
    password: 'admin',
    name: `${org.name} Admin`,
    firstName: org.name,
    lastName: 'Admin',
    locale: 'en',
    memberships: [{ orgId: org.id, isSystemAdmin: true }],
  });
  return (await signIn(baseUrl, email, 'admin')).jar;
}
