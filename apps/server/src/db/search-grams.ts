import { type Kysely, sql } from 'kysely';
import { searchGrams } from '../lib/user-text.ts';

/** Counts of grams per status and user type, as a bulk load adds them up for `user_search_grams`. */
export class GramTally {
  private readonly counts = new Map<string, Map<string, number>>();

  add(searchTextOfUser: string, status: string, isSystemAdmin: boolean): void {
    const key = `${status}/${isSystemAdmin}`;
    let counts = this.counts.get(key);
    if (!counts) {
      counts = new Map();
      this.counts.set(key, counts);
    }
    for (const gram of searchGrams(searchTextOfUser)) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }

  /** How many users hold each gram, whatever their status and user type. */
  totals(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const row of this.rows()) totals.set(row.gram, (totals.get(row.gram) ?? 0) + row.n);
    return totals;
  }

  *rows(): Generator<{ gram: string; status: string; isSystemAdmin: boolean; n: number }> {
    for (const [key, counts] of this.counts) {
      const [status = '', admin] = key.split('/');
      for (const [gram, n] of counts) yield { gram, status, isSystemAdmin: admin === 'true', n };
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
