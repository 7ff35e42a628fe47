import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedEveryMigration, type DatabaseHandle, migrate, openDatabase } from '../src/db/database.ts';
import { demoTemplate } from './support/demo-template.ts';

const recorded = async (database: DatabaseHandle) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)).rows;

describe('migrating a database that is up to date', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', loadDataDir: await demoTemplate() });
  });
  afterAll(() => database.close());

  it('takes a database with every migration recorded as up to date, and migrating it again changes nothing', async () => {
    expect(await appliedEveryMigration(database.db)).toBe(true);
    const before = await recorded(database);
    await migrate(database.db);
    expect(await recorded(database)).toEqual(before);
  });

  it('does not when a migration is not recorded, nor when one this code does not know is', async () => {
    const { db } = database;
    const last = await sql<{ name: string; timestamp: string }>`delete from kysely_migration
      where name = (select max(name) from kysely_migration) returning name, timestamp`.execute(db);
    expect(await appliedEveryMigration(db)).toBe(false);
    const record = last.rows[0];
    if (!record) throw new Error('no migration was recorded');
    await sql`insert into kysely_migration (name, timestamp) values (${record.name}, ${record.timestamp})`.execute(db);
    expect(await appliedEveryMigration(db)).toBe(true);

    await sql`insert into kysely_migration (name, timestamp) values ('9999-of-a-newer-version', now()::text)`.execute(
      db,
    );
    expect(await appliedEveryMigration(db)).toBe(false);
    // The migrator then refuses a database of a newer version, as it did before.
    await expect(migrate(db)).rejects.toThrow(/9999-of-a-newer-version/);
    await sql`delete from kysely_migration where name = '9999-of-a-newer-version'`.execute(db);
  });

  it('does not for a database without the migrations table (a new one)', async () => {
    const { db } = database;
    await sql`alter table kysely_migration rename to kysely_migration_away`.execute(db);
    try {
      expect(await appliedEveryMigration(db)).toBe(false);
    } finally {
      await sql`alter table kysely_migration_away rename to kysely_migration`.execute(db);
    }
  });
});
