import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { USER_STATUSES } from '@users-admin/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database.ts';
import { migrations as allMigrations } from '../src/db/migrations/index.ts';
import { createUsersRepository } from '../src/repositories/users-repository.ts';
import { createScratchDatabase } from './support/test-server.ts';
import { userRow } from './support/user-rows.ts';

const LEGACY_SCHEMA = readFileSync(path.join(import.meta.dirname, 'fixtures/legacy-schema.sql'), 'utf8');
const ORG = '01900000-0000-7000-8000-0000000000a1';
const OTHER_ORG = '01900000-0000-7000-8000-0000000000a2';
const ACCOUNT = '01900000-0000-7000-8000-0000000000b1';

/** What a database of the old migrations held: organisations, an account, its memberships, users, a session. */
function legacyData(): string {
  const users = [
    { ...userRow(ORG, 'Ada Admin', 'ada@acme.example', { is_system_admin: true }), account_id: ACCOUNT },
    { ...userRow(OTHER_ORG, 'Ada Admin', 'ada@acme.example'), account_id: ACCOUNT },
    ...Array.from({ length: 30 }, (_, i) =>
      userRow(ORG, `User ${i}`, `user.${i}@acme.example`, {
        status: USER_STATUSES[i % 4] ?? 'active',
        is_external: i % 5 === 0,
      }),
    ),
  ];
  const literal = (value: unknown) =>
    value === null || value === undefined ? 'null' : `'${String(value).replaceAll("'", "''")}'`;
  const userValues = users.map((u) =>
    [
      u.org_id,
      u.id,
      u.account_id,
      u.name,
      u.email,
      u.status,
      u.is_external,
      u.is_system_admin,
      u.sort_name,
      u.search_text,
    ]
      .map(literal)
      .join(', '),
  );
  return `
    set search_path = public;
    insert into organizations (id, name, slug) values ('${ORG}', 'Acme', 'acme'), ('${OTHER_ORG}', 'Other', 'other');
    insert into accounts (id, email, name, password_hash) values ('${ACCOUNT}', 'ada@acme.example', 'Ada Admin', 'x');
    insert into users (org_id, id, account_id, name, email, status, is_external, is_system_admin, sort_name, search_text)
      values (${userValues.join('), (')});
    insert into sessions (id, account_sub, org_id, claims, access_token_expires_at, expires_at)
      values ('hash', '${users[0]?.id}', '${ORG}', '{"sub": "x"}', now(), now() + interval '1 day');
  `;
}

/** Tables, columns, indexes, functions and triggers of the public schema, partitions' own indexes aside. */
async function schemaOf(db: Db): Promise<unknown> {
  const { rows } = await sql`
    select 'column' as kind, table_name || '.' || column_name || ' ' || data_type as what
      from information_schema.columns where table_schema = 'public' and table_name not like 'users\\_p%'
    union all select 'index', indexname || ' ' || regexp_replace(indexdef, '^.* ON ', '')
      from pg_indexes where schemaname = 'public' and tablename not like 'users\\_p%'
    union all select 'function', proname from pg_proc where pronamespace = 'public'::regnamespace
      and proname not in (select proname from pg_proc p join pg_depend d on d.objid = p.oid and d.deptype = 'e')
    union all select 'trigger', tgname from pg_trigger where not tgisinternal and tgrelid::regclass::text not like 'users\\_p%'
    union all select 'table', relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'S')
    order by 1, 2`.execute(db);
  return rows;
}

async function expectUpgraded(db: Db, fresh: Db): Promise<void> {
  expect(await schemaOf(db)).toEqual(await schemaOf(fresh));
  const count = async (table: 'organizations' | 'accounts' | 'users' | 'sessions') =>
    Number((await db.selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  expect([
    await count('organizations'),
    await count('accounts'),
    await count('users'),
    await count('sessions'),
  ]).toEqual([2, 1, 32, 1]);
  const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  // The old migrations stand for the baseline; the later ones ran after it.
  expect(migrations.rows.map((row) => row.name)).toEqual(Object.keys(allMigrations));
  const users = createUsersRepository(db);
  expect((await users.countUsers(ORG, { pageSize: 25, pageNumber: 1 })).count).toBe(31);
  expect((await users.countUsers(ORG, { pageSize: 25, pageNumber: 1, status: 'inactive' })).count).toBe(8);
  const page = await users.listUsers(ORG, { pageSize: 25, pageNumber: 1, search: 'user 1', sort: 'name' });
  expect(page.users.map((user) => user.name)).toEqual([
    'User 1',
    ...Array.from({ length: 10 }, (_, i) => `User 1${i}`),
  ]);
  // The new triggers keep the counts from now on.
  await db
    .insertInto('users')
    .values(userRow(ORG, 'Newcomer', 'new@acme.example'))
    .execute();
  expect((await users.countUsers(ORG, { pageSize: 25, pageNumber: 1 })).count).toBe(32);
}

describe('a database made by the migrations before the baseline', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'opens on PGlite with every row kept and the schema of a new one',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'legacy-pglite-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const legacy = await PGlite.create(dataDir, { extensions: { pg_trgm } });
      await legacy.exec(LEGACY_SCHEMA);
      await legacy.exec(legacyData());
      await legacy.close();
      const database = await openDatabase({ dataDir });
      cleanups.push(() => database.close());
      const fresh = await openDatabase({ dataDir: 'memory://' });
      cleanups.push(() => fresh.close());
      await expectUpgraded(database.db, fresh.db);
    },
    // Three PGlite databases made and migrated, one after the other.
    90_000,
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'opens on PostgreSQL with every row kept and the schema of a new one',
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL as string;
      const legacyDb = await createScratchDatabase(adminUrl);
      cleanups.push(() => legacyDb.drop());
      const client = new pg.Client({ connectionString: legacyDb.url });
      await client.connect();
      await client.query(LEGACY_SCHEMA);
      await client.query(legacyData());
      await client.end();
      const database = await openDatabase({ databaseUrl: legacyDb.url, dataDir: '' });
      cleanups.push(() => database.close());
      const freshDb = await createScratchDatabase(adminUrl);
      cleanups.push(() => freshDb.drop());
      const fresh = await openDatabase({ databaseUrl: freshDb.url, dataDir: '' });
      cleanups.push(() => fresh.close());
      await expectUpgraded(database.db, fresh.db);
    },
  );
});
