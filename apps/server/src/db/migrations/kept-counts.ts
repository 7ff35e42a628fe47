/**
 * The filters whose values are few enough to keep users' counts of, per organisation: the columns of
 * `user_counts` and `sign_in_counts` (with the day of last sign-in) after `org_id`. A filter with many
 * values (a date, a name) is counted in its index instead. Beside the migrations: the embedded
 * database's template is keyed by this folder's files.
 */
export const KEPT_COUNT_COLUMNS = ['status', 'is_system_admin', 'is_external'] as const;

const positions = (count: number) => Array.from({ length: count }, (_, i) => i + 1).join(', ');

/**
 * Adds `amount` (over `source`) to each group of `table` keyed by `keys`, in key order so that two
 * writers never deadlock; `having`: skip groups whose rows only moved within them.
 */
function addToCounts(table: string, keys: readonly string[], source: string, amount: string, having = '') {
  const list = keys.join(', ');
  return `  insert into ${table} as c (${list}, n)
  select ${list}, ${amount} from ${source}
  group by ${positions(keys.length)}${having} order by ${positions(keys.length)}
  on conflict (${list}) do update set n = c.n + excluded.n;`;
}

/** Both kept counts over `source` rows, whose columns are named as the tables' keys (day included). */
function addToBoth(columns: readonly string[], source: (withDay: boolean) => string, amount: string, having = '') {
  const keys = ['org_id', ...columns];
  return [
    addToCounts('user_counts', keys, source(false), amount, having),
    addToCounts('sign_in_counts', [...keys, 'day'], source(true), amount, having),
  ].join('\n');
}

/**
 * The statement triggers' functions that keep `user_counts` and `sign_in_counts` for `columns` in the
 * transaction of every write to `users`: generated, so that a kept filter is one more name in the list.
 */
export function keptCountFunctions(columns: readonly string[]): string {
  const rowsOf = (rows: string, withDay: boolean, extra = '') =>
    `select org_id, ${columns.join(', ')}${withDay ? ', sign_in_day(last_sign_in_at) as day' : ''}${extra} from ${rows}`;
  const written = (rows: string) => (withDay: boolean) => `(${rowsOf(rows, withDay)}) written`;
  const changed = (withDay: boolean) =>
    `(${rowsOf('new_rows', withDay, ', 1 as d')} union all ${rowsOf('old_rows', withDay, ', -1')}) changed`;
  const fn = (name: string, body: string) =>
    `create or replace function ${name}() returns trigger language plpgsql as $$\nbegin\n${body}\n  return null;\nend $$;`;
  return [
    fn('user_counts_insert', addToBoth(columns, written('new_rows'), 'count(*)')),
    fn('user_counts_delete', addToBoth(columns, written('old_rows'), '-count(*)')),
    fn('user_counts_update', addToBoth(columns, changed, 'sum(d)', ' having sum(d) <> 0')),
    fn('user_counts_truncate', '  delete from user_counts;\n  delete from sign_in_counts;'),
  ].join('\n\n');
}
