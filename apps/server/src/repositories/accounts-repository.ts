import type { Db } from '../db/database.ts';
import { verifyPassword } from '../lib/passwords.ts';

export interface Membership {
  /** The user's id in the organisation: the OpenID subject of a sign-in to that organisation. */
  userId: string;
  orgId: string;
  orgName: string;
  name: string;
  email: string;
  locale: string;
  isSystemAdmin: boolean;
}

/** People who can sign in, and the organisations they belong to. */
export function createAccountsRepository(db: Db) {
  const memberships = () =>
    db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.id', 'users.account_id')
      .innerJoin('organizations', 'organizations.id', 'users.org_id')
      .select([
        'users.id as userId',
        'users.org_id as orgId',
        'organizations.name as orgName',
        'accounts.name as name',
        'accounts.email as email',
        'accounts.locale as locale',
        'users.is_system_admin as isSystemAdmin',
      ])
      .where('users.status', '=', 'active');

  return {
    /** The account's active memberships if the password is right; undefined otherwise. */
    async authenticate(email: string, password: string): Promise<Membership[] | undefined> {
      const account = await db
        .selectFrom('accounts')
        .select(['id', 'password_hash'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
        .executeTakeFirst();
      if (!account || !(await verifyPassword(password, account.password_hash))) return undefined;
      return memberships().where('users.account_id', '=', account.id).orderBy('organizations.name').execute();
    },

    /** The membership a sign-in subject stands for, if it is still active. */
    findMembership(userId: string): Promise<Membership | undefined> {
      return memberships().where('users.id', '=', userId).executeTakeFirst();
    },

    /**
     * The active membership of the organisation held by the account with this e-mail address: how a
     * person signed in by an external issuer (whose subject means nothing here) is found.
     */
    findMembershipByEmail(orgId: string, email: string): Promise<Membership | undefined> {
      return memberships()
        .where('users.org_id', '=', orgId)
        .where((eb) => eb(eb.fn('lower', ['accounts.email']), '=', email.trim().toLowerCase()))
        .executeTakeFirst();
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
