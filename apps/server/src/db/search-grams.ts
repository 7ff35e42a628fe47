import { USER_STATUSES, type UserStatus } from '@users-admin/contract';
import { type Kysely, sql } from 'kysely';
import { forEachSearchGram } from '../lib/user-text.ts';

const STATUSES = USER_STATUSES;
/** The number of statuses and user types a user can have together. */
export const STATUS_GROUPS = STATUSES.length * 2;
/** A status and user type as one small number, from 0 to STATUS_GROUPS - 1. */
export const statusGroup = (status: string, isSystemAdmin: boolean): number =>
  STATUSES.indexOf(status as UserStatus) * 2 + Number(isSystemAdmin);
/** The status and user type of a `statusGroup` number. */
export const groupStatus = (group: number): { status: UserStatus; isSystemAdmin: boolean } => ({
  status: STATUSES[group >> 1] as UserStatus,
  isSystemAdmin: (group & 1) === 1,
});

/**
 * Counts of grams per status and user type, as a bulk load adds them up for `user_search_grams`.
 * Each gram's counts remember the last user who added to them, so that a user holding a gram twice
 * counts once without a set of grams per user (a million users are tallied in about 5 s, not 17).
 */
export class GramTally {
  private readonly grams = new Map<string, { lastUser: number; counts: Uint32Array }>();
  private users = 0;

  add(searchTextOfUser: string, status: string, isSystemAdmin: boolean): void {
    const group = statusGroup(status, isSystemAdmin);
    const user = ++this.users;
    forEachSearchGram(searchTextOfUser, (gram) => {
      let tally = this.grams.get(gram);
      if (!tally) {
        tally = { lastUser: 0, counts: new Uint32Array(STATUS_GROUPS) };
        this.grams.set(gram, tally);
      }
      if (tally.lastUser !== user) {
        tally.lastUser = user;
        tally.counts[group] = (tally.counts[group] ?? 0) + 1;
      }
    });
  }

  /** How many users hold each gram, whatever their status and user type. */
  totals(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const [gram, { counts }] of this.grams)
      totals.set(
        gram,
        counts.reduce((sum, n) => sum + n, 0),
      );
    return totals;
  }

  *rows(): Generator<{ gram: string; status: string; isSystemAdmin: boolean; n: number }> {
    for (const [gram, { counts }] of this.grams) {
      for (const [group, n] of counts.entries()) if (n > 0) yield { gram, ...groupStatus(group), n };
    }
  }
}

/** Adds an organisation's tallied grams to `user_search_grams`, 10,000 rows per statement. */
export async function insertGrams<DB>(db: Kysely<DB>, orgId: string, tally: GramTally): Promise<void> {
  const rows = [...tally.rows()];
  for (let from = 0; from < rows.length; from += 10_000) {
    const chunk = rows.slice(from, from + 10_000);
    await sql`
      insert into user_search_grams (org_id, gram, status, is_system_admin, n)
      select ${orgId}::uuid, * from unnest(
        ${chunk.map((row) => row.gram)}::text[], ${chunk.map((row) => row.status)}::text[],
        ${chunk.map((row) => row.isSystemAdmin)}::boolean[], ${chunk.map((row) => row.n)}::bigint[]
      )
      on conflict (org_id, gram, status, is_system_admin) do update set n = user_search_grams.n + excluded.n`.execute(
      db,
    );
  }
}
