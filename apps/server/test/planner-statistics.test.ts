import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/db/database.ts';
import { DEMO_ORGS, seedDemoIfEmpty } from '../src/db/seed.ts';

/** Rows the planner believes `users` holds (-1: never analysed). */
async function plannedUsers(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select reltuples::int as n from pg_class where relname = 'users'`.execute(
    db,
  );
  return rows[0]?.n ?? -1;
}

// Of the embedded database only: not run again in the pass on PostgreSQL.
describe.skipIf(process.env.TEST_DATABASE_URL)('planner statistics (PGlite runs no autovacuum)', () => {
  it('gathers statistics right after seeding the demo, so a page is not planned as for one row', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await seedDemoIfEmpty(database.db);
      expect(await plannedUsers(database.db)).toBeGreaterThanOrEqual(485);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`
        explain select u.id from users u
        join (select id from users where org_id = ${DEMO_ORGS.acme.id} order by id limit 25 offset 25) page on page.id = u.id
        where u.org_id = ${DEMO_ORGS.acme.id}`.execute(database.db);
      // Without statistics the planner runs the page's subquery once per user of the organisation.
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).not.toMatch(/Join Filter/);
    } finally {
      await database.close();
    }
  });

  it.each([
    ['a table never analysed', [sql`update pg_class set reltuples = -1 where relname = 'users'`]],
    [
      'users without column statistics (analysed while still empty)',
      [
        sql`update pg_class set reltuples = 0 where relname = 'users'`,
        sql`delete from pg_statistic where starelid = 'users'::regclass`,
      ],
    ],
  ])('analyses a data folder that has %s when the server opens it', async (_case, forgetStatistics) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-stats-'));
    try {
      const first = await openDatabase({ dataDir });
      await sql`insert into organizations (id, name, slug) values (${DEMO_ORGS.acme.id}, 'Acme', 'acme')`.execute(
        first.db,
      );
      await sql`
        insert into users (org_id, id, name, email, status, sort_name, search_text)
        select ${DEMO_ORGS.acme.id}, gen_random_uuid(), 'U ' || n, 'u' || n || '@x.example', 'active', 'u ' || n, 'u'
        from generate_series(1, 300) n`.execute(first.db);
      await sql`analyze users`.execute(first.db);
      for (const statement of forgetStatistics) await statement.execute(first.db);
      await first.close();
      const again = await openDatabase({ dataDir });
      try {
        expect(await plannedUsers(again.db)).toBe(300);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('vacuums a data folder whose users table has no visibility map when the server opens it', async () => {
    // A bulk load stopped before its vacuum, or a rewrite of the table, leaves it so; PGlite never
    // vacuums by itself, and index-only scans then read the table for every entry. (Its rows are in its parts.)
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-vacuum-'));
    const visible = async (db: Db) =>
      (
        await sql<{ pages: number; visible: number }>`
          select sum(relpages)::int as pages, sum(relallvisible)::int as visible from pg_class
          where oid in (select inhrelid from pg_inherits where inhparent = 'users'::regclass)`.execute(db)
      ).rows[0];
    try {
      const first = await openDatabase({ dataDir });
      await sql`insert into organizations (id, name, slug) values (${DEMO_ORGS.acme.id}, 'Acme', 'acme')`.execute(
        first.db,
      );
      await sql`
        insert into users (org_id, id, name, email, status, sort_name, search_text)
        select ${DEMO_ORGS.acme.id}, gen_random_uuid(), 'User ' || n, 'user.' || n || '@acme.example', 'active',
               'user ' || n, 'user ' || n || chr(31) || 'user.' || n || '@acme.example'
        from generate_series(1, 5000) n`.execute(first.db);
      // Rewritten as a migration's `alter table` does: no visibility map (analyse alone finds none).
      await sql`vacuum full users`.execute(first.db);
      await sql`analyze users`.execute(first.db);
      const rewritten = await visible(first.db);
      expect(rewritten?.pages).toBeGreaterThanOrEqual(64);
      expect(rewritten?.visible).toBe(0);
      await first.close();
      const again = await openDatabase({ dataDir });
      try {
        const after = await visible(again.db);
        expect(after?.visible).toBeGreaterThan((after?.pages ?? 0) / 2);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
