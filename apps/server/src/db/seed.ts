import { sql } from 'kysely';
import { uuidv7 } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { searchText, sortName } from '../lib/user-text.ts';
import { countHeavySearchesInBuckets } from './bucket-searches.ts';
import type { Db } from './database.ts';
import {
  HEAVY_SEARCHES_FROM,
  type HeavySearch,
  HeavySearchTally,
  keepHeavySearches,
  MAX_HEAVY_SEARCHES,
} from './heavy-searches.ts';
import { buildPartGrams } from './part-grams.ts';
import type { NewUserRow } from './schema.ts';
import { GramTally, insertGrams, insertSpans } from './search-grams.ts';
import { createRandom, type GeneratedUser, generateUser } from './seed-data.ts';

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

function toRow(orgId: string, user: GeneratedUser, createdAt: number): NewUserRow {
  return {
    org_id: orgId,
    id: uuidv7(createdAt),
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
  await sql`
    insert into users (org_id, id, account_id, name, email, initials, first_name, last_name,
                       status, is_external, is_system_admin, sort_name, search_text)
    select * from unnest(
      ${column('org_id')}::uuid[], ${column('id')}::uuid[], ${column('account_id')}::uuid[],
      ${column('name')}::text[], ${column('email')}::text[], ${column('initials')}::text[],
      ${column('first_name')}::text[], ${column('last_name')}::text[], ${column('status')}::text[],
      ${column('is_external')}::boolean[], ${column('is_system_admin')}::boolean[],
      ${column('sort_name')}::text[], ${column('search_text')}::text[]
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
  /** Searches that this many names or mailboxes hold are kept counted from the load on (`heavy-searches.ts`). */
  heavySearchesFrom?: number;
  /** Told of each step that follows the rows: the heavy searches, the statistics. */
  onStep?: (step: string) => void;
  /** Users per part of each order whose 1–3 character grams a large organisation's load counts (`part-grams.ts`). */
  partUsers?: number;
}

/**
 * Creates an organisation with `users` generated users; returns its id. A bulk load: the
 * organisation's search grams (migration 0005) are added up here while the rows are generated, not
 * by the triggers row by row, and written with the last batch.
 */
export async function seedOrganization(db: Db, options: SeedOrganizationOptions): Promise<string> {
  const orgId = options.id ?? uuidv7();
  await db.insertInto('organizations').values({ id: orgId, name: options.name, slug: options.slug }).execute();
  await db.insertInto('user_search_grams_pending').values({ org_id: orgId }).execute();
  const random = createRandom(options.seed ?? 1);
  const batchSize = options.batchSize ?? 5000;
  const grams = new GramTally();
  const heavy = new HeavySearchTally();
  // Spread creation times over the past so the unsorted order (by id) is the order of joining.
  const start = Date.now() - options.users * 1000;
  for (let done = 0; done < options.users; ) {
    const count = Math.min(batchSize, options.users - done);
    const rows: NewUserRow[] = [];
    for (let i = 0; i < count; i++) {
      const n = done + i + 1;
      const row = toRow(orgId, generateUser(random, n, `${options.slug}.example`), start + n * 1000);
      grams.add(row.search_text, row.status, row.is_system_admin ?? false, row.sort_name);
      heavy.add(row.search_text, row.status, row.is_system_admin ?? false);
      rows.push(row);
    }
    await insertUsers(db, rows);
    done += count;
    options.onProgress?.(done, options.users);
  }
  options.onStep?.('finding the searches that many names or mailboxes hold');
  const heavySearches = heavy.find(
    grams.totals(),
    options.heavySearchesFrom ?? HEAVY_SEARCHES_FROM,
    MAX_HEAVY_SEARCHES,
  );
  await writeSearchCounts(db, orgId, grams, heavySearches);
  return orgId;
}

/**
 * Writes a bulk-loaded organisation's grams, heavy searches and page buckets (migration 0013) and
 * ends its registration as pending, in one transaction; from then on the triggers keep them. The organisation is new and its id known
 * only to the loader, so no other change can fall between the last batch and this.
 */
async function writeSearchCounts(
  db: Db,
  orgId: string,
  grams: GramTally,
  heavy: readonly HeavySearch[],
): Promise<void> {
  const write = async (tx: Db) => {
    await insertGrams(tx, orgId, grams);
    await insertSpans(tx, orgId, grams);
    await keepHeavySearches(tx, orgId, heavy);
    await sql`select user_page_buckets_build(${orgId})`.execute(tx);
    await tx.deleteFrom('user_search_grams_pending').where('org_id', '=', orgId).execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
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
 * an organisation for one row and joins a page 40 times slower (21 ms instead of 0.5 ms).
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

/**
 * A large generated organisation with a System Admin who can sign in (`admin@<slug>.example`),
 * and fresh planner statistics and visibility map, so index-only scans work from the first request;
 * its grams and heavy searches counted per part of each order (`buildPartGrams`), or, with too few
 * users for parts, its densest heavy searches per page bucket (`countHeavySearchesInBuckets`).
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
  options.onStep?.('counting the one- to three-letter grams per part of each order');
  const { parts } = await db
    .transaction()
    .execute((tx) =>
      buildPartGrams(tx, orgId, options.partUsers === undefined ? {} : { partUsers: options.partUsers }),
    );
  // Too few users for parts: the densest heavy searches' deep pages read counts per page bucket.
  if (parts === 0) {
    await countHeavySearchesInBuckets(db, orgId, {
      onSearch: (search, index, of) => options.onStep?.(`counting "${search}" per page bucket (${index + 1} of ${of})`),
    });
  }
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
    .selectFrom('organizations as o')
    .leftJoin('user_search_grams_pending as p', 'p.org_id', 'o.id')
    .select(['o.id', 'p.org_id as pending'])
    .where('o.slug', '=', options.slug)
    .executeTakeFirst();
  if (existing) {
    if (existing.pending) {
      throw new Error(
        `The organisation "${options.slug}" was left half-seeded by a run that was stopped: remove the benchmark's data folder and run again.`,
      );
    }
    return { orgId: existing.id, adminEmail: `admin@${options.slug}.example` };
  }
  options.beforeSeeding?.();
  return seedLargeOrganization(db, options);
}
