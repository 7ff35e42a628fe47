import { describe, expect, it } from 'vitest';
import { insertUsers } from '../src/db/seed.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { applyAction, StaleVersion } from '../src/repositories/user-actions-repository.ts';
import { useOwnDatabase } from './support/own-database.ts';
import { userRow } from './support/user-rows.ts';

/** applyAction on its own, as a job's batches will call it, and two calls at once. */
describe('applyAction', () => {
  const database = useOwnDatabase();

  async function org(admins: number, users: number) {
    const id = uuidv7();
    const { db } = database;
    await db.insertInto('organizations').values({ id, name: id, slug: id }).execute();
    const rows = [
      ...Array.from({ length: admins }, (_, i) =>
        userRow(id, `Admin ${i}`, `a${i}@x.example`, { is_system_admin: true }),
      ),
      ...Array.from({ length: users }, (_, i) => userRow(id, `User ${i}`, `u${i}@x.example`)),
    ];
    await insertUsers(db, rows);
    return { id, admins: rows.slice(0, admins).map((r) => r.id), users: rows.slice(admins).map((r) => r.id) };
  }
  const activeAdmins = async (orgId: string) =>
    Number(
      (
        await database.db
          .selectFrom('user_counts')
          .select((eb) => eb.fn.sum<string>('n').as('n'))
          .where('org_id', '=', orgId)
          .where('status', '=', 'active')
          .where('is_system_admin', '=', true)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('lets only one of two administrators demoting each other at once pass: the other is the last', async () => {
    const { id, admins } = await org(2, 0);
    const [a, b] = admins as [string, string];
    const demote = (actor: string, target: string) =>
      applyAction(database.db, {
        orgId: id,
        actor: { id: actor },
        action: 'set_user_type',
        isSystemAdmin: false,
        ids: [target],
      });
    const results = (await Promise.all([demote(a, b), demote(b, a)])).flat();
    expect(results.map((r) => r.result).sort()).toEqual(['done', 'skipped']);
    expect(results.find((r) => r.result === 'skipped')?.reason).toBe('last_system_admin');
    expect(await activeAdmins(id)).toBe(1);
  });

  it('keeps the last one within a batch too: each demotion counts', async () => {
    const { id, admins } = await org(3, 0);
    const [a, b, c] = admins as [string, string, string];
    // Made as the only admin left would be, by an actor who is not counted (a job's, say).
    await database.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('org_id', '=', id)
      .where('id', '=', a)
      .execute();
    const results = await applyAction(database.db, { orgId: id, actor: { id: a }, action: 'remove', ids: [b, c] });
    expect(results.map((r) => r.reason)).toEqual([undefined, 'last_system_admin']);
    expect(await activeAdmins(id)).toBe(1);
  });

  it('applies batch after batch, each audited with its job', async () => {
    const { id, admins, users } = await org(1, 7);
    const jobId = uuidv7();
    const actor = { id: admins[0] as string };
    for (let start = 0; start < users.length; start += 3) {
      const ids = users.slice(start, start + 3);
      const results = await applyAction(database.db, { orgId: id, actor, action: 'disable', ids, jobId });
      expect(results.every((r) => r.result === 'done')).toBe(true);
    }
    // A batch run again (a job resumed) changes no one twice.
    const again = await applyAction(database.db, {
      orgId: id,
      actor,
      action: 'disable',
      ids: users.slice(0, 3),
      jobId,
    });
    expect(again.map((r) => r.reason)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    const events = await database.db
      .selectFrom('audit_events')
      .select(['user_id', 'job_id', 'actor_name'])
      .where('org_id', '=', id)
      .execute();
    expect(events).toHaveLength(7);
    expect(new Set(events.map((e) => e.job_id))).toEqual(new Set([jobId]));
    expect(events[0]?.actor_name).toBe('Admin 0');
    const versions = await database.db
      .selectFrom('users')
      .select('version')
      .where('org_id', '=', id)
      .where('id', 'in', users)
      .execute();
    expect(versions.map((v) => String(v.version))).toEqual(Array(7).fill('2'));
  });

  it('refuses a change asked against another version, changing nothing', async () => {
    const { id, admins, users } = await org(1, 1);
    const input = { orgId: id, actor: { id: admins[0] as string }, action: 'disable' as const, ids: users };
    await expect(applyAction(database.db, { ...input, expectedVersions: ['2'] })).rejects.toBeInstanceOf(StaleVersion);
    expect((await applyAction(database.db, { ...input, expectedVersions: ['1'] }))[0]?.result).toBe('done');
  });
});
