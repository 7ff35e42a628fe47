import { sql } from 'kysely';
import { uuidv7 } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { searchText, sortName } from '../lib/user-text.ts';
import type { Db } from './database.ts';
import { startGramInitialsLoad } from './gram-initials-load.ts';
import type { NewUserRow } from './schema.ts';
import { createRandom, type GeneratedUser, generateUser } from './seed-data.ts';
import { lastSignIn, SEED_HISTORY_MS } from './seed-sign-ins.ts';

export const DEMO_ORGS = {
  acme: { id: '01900000-0000-7000-8000-000000000001', name: 'Acme', slug: 'acme' },
  globex: { id: '01900000-0000-7000-8000-000000000002', name: 'Globex', slug: 'globex' },
} as const;

type DemoOrg = keyof typeof DEMO_ORGS;

export const DEMO_ACCOUNTS: readonly {
  email: string;
  password: string;
  name: string;
  firstName: string;
  lastName: string;
  locale: string;
  memberships: readonly { org: DemoOrg; isSystemAdmin: boolean }[];
}[] = [
  {
    email: 'admin@acme.example',
    password: 'admin',
    name: 'Ada Admin',
    firstName: 'Ada',
    lastName: 'Admin',
    locale: 'en',
    memberships: [{ org: 'acme', isSystemAdmin: true }],
  },
  {
    email: 'user@acme.example',
    password: 'user',
    name: 'Ulysses User',
    firstName: 'Ulysses',
    lastName: 'User',
    locale: 'en',
    memberships: [{ org: 'acme', isSystemAdmin: false }],
  },
  {
    email: 'admin@globex.example',
    password: 'admin',
    name: 'Greta Globex',
    firstName: 'Greta',
    lastName: 'Globex',
    locale: 'de',
    memberships: [{ org: 'globex', isSystemAdmin: true }],
  },
  // A consultant in both organisations: a plain User of Acme and a System Admin of Globex.
  {
    email: 'pat@partners.example',
    password: 'pat',
    name: 'Pat Partner',
    firstName: 'Pat',
    lastName: 'Partner',
    locale: 'fr',
    memberships: [
      { org: 'acme', isSystemAdmin: false },
      { org: 'globex', isSystemAdmin: true },
    ],
  },
];

const DEMO_USER_COUNTS = { acme: 420, globex: 60 } as const;

export type Progress = (done: number, total: number) => void;

function toRow(orgId: string, user: GeneratedUser, createdAt: number, lastSignInAt: Date | null = null): NewUserRow {
  return {
    org_id: orgId,
    id: uuidv7(createdAt),
    created_at: new Date(createdAt).toISOString(),
    last_sign_in_at: lastSignInAt?.toISOString() ?? null,
    account_id: null,
    name: user.name,
    email: user.email,
    initials: user.initials,
    first_name: user.firstName,
    last_name: user.lastName,
    status: user.status,
    is_external: user.isExternal,
    is_system_admin: user.isSystemAdmin,
    sort_name: sortName(user.name),
    search_text: searchText(user.name, user.email),
  };
}

/**
 * Inserts users in batches of one statement each: column arrays passed to `unnest`, so a batch
 * of thousands of rows costs one parse and a handful of bound parameters on either engine.
 */
export async function insertUsers(db: Db, rows: readonly NewUserRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof NewUserRow>(key: K) => rows.map((row) => row[key] ?? null);
  const createdAt = new Date().toISOString();
  await sql`
    insert into users (org_id, id, account_id, name, email, initials, first_name, last_name,
                       status, is_external, is_system_admin, sort_name, search_text, created_at, last_sign_in_at)
    select * from unnest(
      ${column('org_id')}::uuid[], ${column('id')}::uuid[], ${column('account_id')}::uuid[],
      ${column('name')}::text[], ${column('email')}::text[], ${column('initials')}::text[],
      ${column('first_name')}::text[], ${column('last_name')}::text[], ${column('status')}::text[],
      ${column('is_external')}::boolean[], ${column('is_system_admin')}::boolean[],
      ${column('sort_name')}::text[], ${column('search_text')}::text[],
      ${rows.map((row) => row.created_at ?? createdAt)}::timestamptz[], ${column('last_sign_in_at')}::timestamptz[]
    )`.execute(db);
}

export interface SeedOrganizationOptions {
  id?: string;
  name: string;
  slug: string;
  users: number;
  seed?: number;
  batchSize?: number;
  onProgress?: Progress;
  /** Told of each step that follows the rows. */
  onStep?: (step: string) => void;
}

/**
 * Creates an organisation with `users` generated users; returns its id. Batches are inserted two at
 * a time (PostgreSQL runs them on two connections while the next is generated; PGlite one after
 * the other), each sorted by name so that the ordered indexes are written page by page.
 */
export async function seedOrganization(db: Db, options: SeedOrganizationOptions): Promise<string> {
  const orgId = options.id ?? uuidv7();
  await db.insertInto('organizations').values({ id: orgId, name: options.name, slug: options.slug }).execute();
  const initials = await startGramInitialsLoad(db, orgId);
  const random = createRandom(options.seed ?? 1);
  // Sign-ins from a stream of their own, so that the users generated stay those of earlier versions.
  const signInRandom = createRandom((options.seed ?? 1) + 7919);
  const batchSize = options.batchSize ?? 5000;
  // Joined over the past three years, in order, so the unsorted order (by id) is the order of joining.
  const now = Date.now();
  const step = SEED_HISTORY_MS / Math.max(1, options.users);
  const start = now - SEED_HISTORY_MS;
  const inFlight: Promise<number>[] = [];
  let inserted = 0;
  for (let generated = 0; generated < options.users; ) {
    const count = Math.min(batchSize, options.users - generated);
    const rows: NewUserRow[] = [];
    for (let i = 0; i < count; i++) {
      const n = generated + i + 1;
      const user = generateUser(random, n, `${options.slug}.example`);
      const createdAt = Math.floor(start + n * step);
      const row = toRow(orgId, user, createdAt, lastSignIn(signInRandom, user.status, createdAt, now));
      initials.add(row.sort_name, row.search_text);
      rows.push(row);
    }
    rows.sort((a, b) => (a.sort_name < b.sort_name ? -1 : a.sort_name > b.sort_name ? 1 : 0));
    generated += count;
    const batch = insertUsers(db, rows).then(() => count);
    batch.catch(() => {}); // Awaited below: a batch that fails while an earlier one is awaited is not unhandled.
    inFlight.push(batch);
    if (inFlight.length === 2) {
      inserted += await (inFlight.shift() as Promise<number>);
      options.onProgress?.(inserted, options.users);
    }
  }
  for (const batch of inFlight) {
    inserted += await batch;
    options.onProgress?.(inserted, options.users);
  }
  await initials.finish();
  return orgId;
}

/** Creates an account that can sign in, and its user in each of its organisations. */
export async function createAccount(
  db: Db,
  account: {
    email: string;
    password: string;
    name: string;
    firstName: string;
    lastName: string;
    locale: string;
    memberships: readonly { orgId: string; isSystemAdmin: boolean }[];
  },
): Promise<string> {
  const accountId = uuidv7();
  await db
    .insertInto('accounts')
    .values({
      id: accountId,
      email: account.email,
      name: account.name,
      password_hash: await hashPassword(account.password),
      locale: account.locale,
    })
    .execute();
  await insertUsers(
    db,
    account.memberships.map((membership) => ({
      ...toRow(
        membership.orgId,
        {
          name: account.name,
          email: account.email,
          initials: `${account.firstName.charAt(0)}${account.lastName.charAt(0)}`,
          firstName: account.firstName,
          lastName: account.lastName,
          status: 'active',
          isExternal: false,
          isSystemAdmin: membership.isSystemAdmin,
        },
        Date.now(),
      ),
      account_id: accountId,
    })),
  );
  return accountId;
}

/**
 * Seeds the demo organisations and accounts when the database has no organisation yet, then
 * gathers planner statistics: PGlite has no autovacuum, and without statistics the planner takes
 * an organisation for one row and joins a page many times slower.
 */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const existing = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  await db.transaction().execute(async (tx) => {
    for (const [key, org] of Object.entries(DEMO_ORGS)) {
      await seedOrganization(tx, {
        ...org,
        users: DEMO_USER_COUNTS[key as keyof typeof DEMO_ORGS],
        seed: key === 'acme' ? 1 : 2,
      });
    }
    for (const account of DEMO_ACCOUNTS) {
      const memberships = account.memberships.map((m) => ({
        orgId: DEMO_ORGS[m.org].id,
        isSystemAdmin: m.isSystemAdmin,
      }));
      await createAccount(tx, { ...account, memberships });
    }
    // In the same transaction, so that no data folder holds the demo without statistics.
    await sql`analyze`.execute(tx);
  });
  return true;
}
