import { sql } from 'kysely';
import type { Db } from './database.ts';
import { createAccount, type SeedOrganizationOptions, seedOrganization } from './seed.ts';

/**
 * A large generated organisation with a System Admin who can sign in (`admin@<slug>.example`),
 * then fresh planner statistics and visibility map, so that index-only scans work from the first request.
 */
export async function seedLargeOrganization(
  db: Db,
  options: SeedOrganizationOptions & { adminFirstName: string; adminPassword: string },
): Promise<{ orgId: string; adminEmail: string }> {
  const orgId = await seedOrganization(db, options);
  const adminEmail = `admin@${options.slug}.example`;
  await createAccount(db, {
    email: adminEmail,
    password: options.adminPassword,
    name: `${options.adminFirstName} Admin`,
    firstName: options.adminFirstName,
    lastName: 'Admin',
    locale: 'en',
    memberships: [{ orgId, isSystemAdmin: true }],
  });
  options.onStep?.('vacuum and planner statistics');
  await sql`vacuum analyze users`.execute(db);
  return { orgId, adminEmail };
}

/**
 * The large organisation of `options.slug` as an earlier run left it, or seeded now: how the
 * benchmarks reuse their data between runs.
 */
export async function ensureLargeOrganization(
  db: Db,
  options: Parameters<typeof seedLargeOrganization>[1] & { beforeSeeding?: () => void },
): Promise<{ orgId: string; adminEmail: string }> {
  const existing = await db
    .selectFrom('organizations')
    .select('id')
    .where('slug', '=', options.slug)
    .executeTakeFirst();
  if (existing) {
    const counted = await db
      .selectFrom('user_counts')
      .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
      .where('org_id', '=', existing.id)
      .executeTakeFirstOrThrow();
    const signedIn = await db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', existing.id)
      .where('last_sign_in_at', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    // Its generated users and its admin: fewer, and a run was stopped half-way; no sign-ins, and an older version seeded it.
    if (Number(counted.n) !== options.users + 1 || !signedIn) {
      throw new Error(
        `The organisation "${options.slug}" was left half-seeded, or seeded by an older version: remove the benchmark's data folder and run again.`,
      );
    }
    return { orgId: existing.id, adminEmail: `admin@${options.slug}.example` };
  }
  options.beforeSeeding?.();
  return seedLargeOrganization(db, options);
}
