import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '../src/db/database.ts';
import { seedOrganization } from '../src/db/seed.ts';
import { seedLargeOrganization } from '../src/db/seed-large.ts';
import { searchIndex } from '../src/repositories/user-conditions.ts';
import { createScratchDatabase } from './support/test-server.ts';

/** Every index of `users` and its parts, with its definition and whether it is valid. */
async function usersIndexes(db: Db) {
  const { rows } = await sql<{ name: string; definition: string; valid: boolean }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indisvalid as valid
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
    where t.relname like 'users%' order by 1`.execute(db);
  return rows;
}

const options = { name: 'Loaded', slug: 'loaded', users: 600, seed: 3, adminFirstName: 'Load', adminPassword: 'x' };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const dropsIndexes = (statements: string[]) => statements.some((text) => /^drop index/i.test(text));

describe('seeding a large organisation', () => {
  let database: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  const statements: string[] = [];

  /** A database with the schema and no users, on the engine of the run; records statements from then on. */
  async function emptyDatabase(): Promise<DatabaseHandle> {
    const scratch = onPostgres ? await createScratchDatabase(process.env.TEST_DATABASE_URL ?? '') : undefined;
    drop = scratch?.drop;
    database = await openDatabase({
      databaseUrl: scratch?.url,
      dataDir: 'memory://',
      onStatement: (text) => statements.push(text),
    });
    statements.length = 0;
    return database;
  }

  afterEach(async () => {
    await database?.close();
    await drop?.();
  });

  it.skipIf(onPostgres)('into an empty table on PGlite builds the same indexes after the rows', async () => {
    const handle = await emptyDatabase();
    const { db } = handle;
    const before = await usersIndexes(db);
    const { orgId } = await seedLargeOrganization(handle, options);
    expect(dropsIndexes(statements)).toBe(true);
    const after = await usersIndexes(db);
    expect(after).toEqual(before);
    expect(after.every((index) => index.valid)).toBe(true);
    const counted = await db
      .selectFrom('user_counts')
      .select(sql<string>`sum(n)`.as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(options.users + 1);
    // Found through the rebuilt trigram index, as a search finds them.
    const found = await db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const grams = searchIndex('load admin');
      if (!grams) throw new Error('"load admin" has grams');
      const select = tx.selectFrom('users').where('org_id', '=', orgId).where(grams);
      const plan = await select.select('id').explain();
      return { plan: JSON.stringify(plan), rows: await select.select('email').execute() };
    });
    expect(found.plan).toMatch(/search_keys/);
    expect(found.rows).toEqual([{ email: 'admin@loaded.example' }]);
  });

  it.skipIf(onPostgres)('that stops half-way on PGlite leaves the empty table with every index', async () => {
    const handle = await emptyDatabase();
    const before = await usersIndexes(handle.db);
    const stopped = seedLargeOrganization(handle, {
      ...options,
      batchSize: 100,
      onProgress: (done) => {
        if (done >= 300) throw new Error('stopped');
      },
    });
    await expect(stopped).rejects.toThrow('stopped');
    expect(await usersIndexes(handle.db)).toEqual(before);
    expect(await handle.db.selectFrom('users').select('id').limit(1).executeTakeFirst()).toBeUndefined();
  });

  it('into a table that has users keeps its indexes throughout', async () => {
    const handle = await emptyDatabase();
    await seedOrganization(handle.db, { name: 'First', slug: 'first', users: 10 });
    await seedLargeOrganization(handle, options);
    expect(dropsIndexes(statements)).toBe(false);
  });

  it.skipIf(!onPostgres)('on PostgreSQL keeps its indexes: two connections insert sooner', async () => {
    const handle = await emptyDatabase();
    await seedLargeOrganization(handle, options);
    expect(dropsIndexes(statements)).toBe(false);
  });
});
