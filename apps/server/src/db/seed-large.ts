import { sql } from 'kysely';
import type { DatabaseHandle, Db } from './database.ts';
import { createAccount, type SeedOrganizationOptions, seedOrganization } from './seed.ts';

/**
 * A large generated organisation with a System Admin who can sign in (`admin@<slug>.example`),
 * then fresh planner statistics and visibility map, so that index-only scans work from the first request.
 */
export async function seedLargeOrganization(
  { db, engine }: Pick<DatabaseHandle, 'db' | 'engine'>,
  options: SeedOrganizationOptions & { adminFirstName: string; adminPassword: string },
): Promise<{ orgId: string; adminEmail: string }> {
  const seed = (target: Db) => seedOrganization(target, options);
  // PostgreSQL inserts on two connections at once, sooner than one connection loads and builds (docs/performance.md).
  const orgId = engine === 'pglite' ? await loadUsers(db, options, seed) : await seed(db);
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
 * Runs `load` with the secondary indexes of `users` built after its rows when the table is empty, as
 * PostgreSQL advises for a bulk load: one sorted build of each instead of a million inserts into each.
 * In one transaction, so a load that stops leaves the table with every index. A table that has rows
 * is loaded as it is: its indexes serve its organisations meanwhile.
 */
async function loadUsers<T>(db: Db, options: { onStep?: (step: string) => void }, load: (db: Db) => Promise<T>) {
  if (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return load(db);
  return db.transaction().execute(async (tx) => {
    const { rows: indexes } = await sql<{ name: string; definition: string }>`
      select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'users'::regclass and not exists (select from pg_constraint k where k.conindid = i.indexrelid)
      order by i.indexrelid
    `.execute(tx);
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(tx);
    const loaded = await load(tx);
    options.onStep?.(`building ${indexes.length} indexes`);
    // More memory than the default: a build sorts in fewer passes (the trigram index's most; docs/performance.md).
    await sql`set local maintenance_work_mem = '512MB'`.execute(tx);
    // A partitioned table's index is defined ON ONLY the table; ON builds it on each part as well. In
    // the order they were made (by oid), so that the parts' indexes get the same names as before.
    for (const index of indexes) await sql.raw(index.definition.replace(' ON ONLY ', ' ON ')).execute(tx);
    return loaded;
  });
}

/**
 * The large organisation of `options.slug` as an earlier run left it, or seeded now: how the
 * benchmarks reuse their data between runs.
 */
export async function ensureLargeOrganization(
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  options: Parameters<typeof seedLargeOrganization>[1] & { beforeSeeding?: () => void },
): Promise<{ orgId: string; adminEmail: string }> {
  const { db } = database;
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
  return seedLargeOrganization(database, options);
}
