import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { userRow } from '../test/support/user-rows.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Times `write` `times` times, each in its own transaction (autocommit). */
async function timeWrites(times: number, write: (i: number) => Promise<unknown>): Promise<number> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await write(i);
    durations.push(performance.now() - started);
  }
  return median(durations);
}

/**
 * Single-row writes with the count triggers and without them (disabled for the measure: the same
 * table, indexes and rows), p50 of each.
 */
export async function measureWrites(db: Db, orgId: string) {
  const { rows } = await sql<{ id: string }>`select id from users where org_id = ${orgId} limit 200`.execute(db);
  const flip = (i: number) =>
    sql`update users set status = case status when 'active' then 'disabled' else 'active' end
      where org_id = ${orgId} and id = ${rows[i % rows.length]?.id}`.execute(db);
  const insert = (label: string) => (i: number) =>
    db
      .insertInto('users')
      .values(userRow(orgId, `Bench Writer ${i}`, `writer.${label}.${i}@bench.example`))
      .execute();
  const withTriggers = { insert: await timeWrites(200, insert('t')), statusChange: await timeWrites(200, flip) };
  await sql`alter table users disable trigger user`.execute(db);
  try {
    const withoutTriggers = { insert: await timeWrites(200, insert('n')), statusChange: await timeWrites(200, flip) };
    await sql`delete from users where org_id = ${orgId} and email like 'writer.n.%'`.execute(db);
    return { withTriggers, withoutTriggers };
  } finally {
    await sql`alter table users enable trigger user`.execute(db);
    await sql`delete from users where org_id = ${orgId} and email like 'writer.%@bench.example'`.execute(db);
  }
}
