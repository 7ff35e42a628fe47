import { type UserStatus, userListDocumentSchema } from '@users-admin/contract';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { createAccount, insertUsers } from '../../src/db/seed.ts';
import { uuidv7 } from '../../src/lib/ids.ts';
import type { CookieJar } from './sign-in.ts';
import { signIn } from './sign-in.ts';
import { userRow } from './user-rows.ts';

/** A call to the API as the page makes it: the session's cookie, JSON:API bodies, the page's own Origin. */
export function apiCaller(baseUrl: string) {
  return (jar: CookieJar | undefined, method: string, path: string, options: CallOptions = {}) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(jar ? { cookie: jar.header() } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
        ...(method === 'GET' ? {} : { origin: new URL(baseUrl).origin }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
}
export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

/** A person who signs in to the organisation: their user id and password. */
export async function memberOf(db: Db, orgId: string, email: string, isSystemAdmin: boolean) {
  const name = email.split('@')[0] ?? email;
  const accountId = await createAccount(db, {
    email,
    password: 'secret',
    name: `${name} Member`,
    firstName: name,
    lastName: 'Member',
    locale: 'en',
    memberships: [{ orgId, isSystemAdmin }],
  });
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', orgId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { id: row.id, email, signIn: (baseUrl: string) => signIn(baseUrl, email, 'secret').then((r) => r.jar) };
}

/** A new organisation with users of every status, data source and user type; their ids by name. */
export async function actionsOrg(db: Db, slug: string) {
  const id = uuidv7();
  await db.insertInto('organizations').values({ id, name: slug, slug }).execute();
  const kinds: [string, UserStatus, boolean, boolean][] = [
    ['active', 'active', false, false],
    ['active2', 'active', false, false],
    ['inactive', 'inactive', false, false],
    ['pending', 'pending', false, false],
    ['disabled', 'disabled', false, false],
    ['external', 'active', true, false],
    ['externalDisabled', 'disabled', true, false],
    ['disabledAdmin', 'disabled', false, true],
  ];
  const rows = kinds.map(([name, status, external, admin]) =>
    userRow(id, name, `${name}@${slug}.example`, { status, is_external: external, is_system_admin: admin }),
  );
  await insertUsers(db, rows);
  const users = Object.fromEntries(rows.map((row) => [row.name, row.id])) as Record<string, string>;
  return { id, users };
}

/** The list's totals for each filter value equal a count of the organisation's users. */
export async function expectExactCounts(db: Db, call: ReturnType<typeof apiCaller>, jar: CookieJar, orgId: string) {
  const filters: [string, string][] = [
    ['', 'true'],
    ...(['active', 'inactive', 'pending', 'disabled'] as const).map((s): [string, string] => [
      `filter[status]=${s}`,
      `status = '${s}'`,
    ]),
    ['filter[is_system_admin]=true', 'is_system_admin'],
    ['filter[is_external]=true', 'is_external'],
    ['filter[status]=active&filter[is_system_admin]=true', "status = 'active' and is_system_admin"],
  ];
  for (const [query, where] of filters) {
    const response = await call(jar, 'GET', `/apis/accounts/api/v3/orgs/${orgId}/users?${query}`);
    const document = userListDocumentSchema.parse(await response.json());
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from users
      where org_id = ${orgId} and ${sql.raw(where)}`.execute(db);
    expect(document.meta.total_count, query).toBe(rows[0]?.n);
  }
}
