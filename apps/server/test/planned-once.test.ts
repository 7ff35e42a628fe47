import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { type DatabaseHandle, type Db, openDatabase, planOnce } from '../src/db/database.ts';
import { createScratchDatabase } from './support/test-server.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

/** The statements prepared on the connection of `db` (a transaction's), and how often each was planned. */
async function preparedStatements(db: Db) {
  const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
    select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(db);
  return rows.map((row) => ({ ...row, generic_plans: Number(row.generic_plans) }));
}

// Named prepared statements are PostgreSQL's; the embedded database plans every statement.
describe.skipIf(!adminUrl)('statements planned once per connection (PostgreSQL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: DatabaseHandle;
  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl ?? '');
    database = await openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database.close();
    await scratch.drop();
  });

  it('prepares a registered statement and keeps a generic plan of it after its first runs', async () => {
    // One transaction: one connection, whose prepared statements pg_prepared_statements shows.
    await database.db.transaction().execute(async (tx) => {
      const bySlug = (slug: string) => tx.selectFrom('organizations').select('id').where('slug', '=', slug);
      planOnce(bySlug('any'));
      for (let run = 0; run < 7; run++) await bySlug(`acme-${run}`).execute();
      const [prepared] = (await preparedStatements(tx)).filter((row) => row.statement === bySlug('').compile().sql);
      expect(prepared?.generic_plans).toBeGreaterThanOrEqual(1);
    });
  });

  it('leaves every other statement unnamed, planned with its values at each run', async () => {
    await database.db.transaction().execute(async (tx) => {
      const byName = (name: string) => tx.selectFrom('organizations').select('id').where('name', '=', name);
      for (let run = 0; run < 7; run++) await byName(`Acme ${run}`).execute();
      const statements = (await preparedStatements(tx)).map((row) => row.statement);
      expect(statements).not.toContain(byName('').compile().sql);
    });
  });

  it('plans the session lookup once: it runs before every API answer and reads one session by its key', async () => {
    await database.db.transaction().execute(async (tx) => {
      const sessions = createSessionStore(tx, { publicUrl: 'http://127.0.0.1:3000', ttlSeconds: 60 });
      const request = {
        cookies: { [SESSION_COOKIE]: 'signed' },
        unsignCookie: () => ({ valid: true, renew: false, value: 'a session id' }),
      } as unknown as FastifyRequest;
      for (let run = 0; run < 14; run++) {
        expect(await sessions.lookup(request, { withRole: run % 2 === 0 })).toEqual({ state: 'invalid' });
      }
      const lookups = (await preparedStatements(tx)).filter((row) => row.statement.includes('from "sessions"'));
      expect(lookups).toHaveLength(1);
      expect(lookups.every((row) => row.generic_plans >= 1)).toBe(true);
    });
  });
});
