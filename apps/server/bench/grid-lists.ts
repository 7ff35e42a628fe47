import type { LastSignInFilter, UserListQuery, UserStatus } from '@users-admin/contract';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';

export const PAGE_SIZE = 25;

interface Filters {
  status: UserStatus;
  isSystemAdmin: boolean;
  isExternal: boolean;
  lastSignIn: LastSignInFilter;
}

/**
 * The searches administrators type, each kind with one value of each filter (different values across
 * kinds, so that the grid holds both the common and the rare value of each). `term` is filled in from
 * the organisation's own data where it depends on it.
 */
const KINDS: readonly { kind: string; term: string; filters: Filters }[] = [
  {
    kind: '1 letter',
    term: 'a',
    filters: { status: 'active', isSystemAdmin: false, isExternal: false, lastSignIn: '30d' },
  },
  {
    kind: '2 letters',
    term: 'an',
    filters: { status: 'active', isSystemAdmin: false, isExternal: true, lastSignIn: 'never' },
  },
  {
    kind: '3 letters',
    term: 'mar',
    filters: { status: 'pending', isSystemAdmin: true, isExternal: true, lastSignIn: 'not90d' },
  },
  {
    kind: 'word',
    term: 'smith',
    filters: { status: 'inactive', isSystemAdmin: true, isExternal: false, lastSignIn: '30d' },
  },
  {
    kind: 'domain',
    term: '',
    filters: { status: 'disabled', isSystemAdmin: false, isExternal: true, lastSignIn: 'not90d' },
  },
  {
    kind: 'e-mail',
    term: '',
    filters: { status: 'active', isSystemAdmin: true, isExternal: false, lastSignIn: 'never' },
  },
  {
    kind: 'no match',
    term: 'zqxj',
    filters: { status: 'pending', isSystemAdmin: false, isExternal: false, lastSignIn: '30d' },
  },
];

const FILTER_LABELS: { [K in keyof Filters]: (value: Filters[K]) => string } = {
  status: (status) => status,
  isSystemAdmin: (admin) => (admin ? 'System Admin' : 'User'),
  isExternal: (external) => (external ? 'third party' : 'platform'),
  lastSignIn: (filter) => ({ '30d': 'in 30 days', not90d: 'not in 90 days', never: 'never signed in' })[filter],
};

const ORDERS = [
  { order: 'unsorted', sort: {} },
  { order: 'name ↑', sort: { sort: 'name' } },
  { order: 'name ↓', sort: { sort: '-name' } },
] as const;

export interface GridList {
  kind: string;
  term: string;
  filters: string;
  order: string;
  query: UserListQuery;
}

/** Every search kind × every subset of its filters × every order: the lists whose pages the grid asks. */
export function gridLists(terms: Record<string, string>): GridList[] {
  const lists: GridList[] = [];
  const names = Object.keys(FILTER_LABELS) as (keyof Filters)[];
  for (const { kind, term, filters } of KINDS) {
    const search = terms[kind] ?? term;
    for (let subset = 0; subset < 2 ** names.length; subset++) {
      const chosen = names.filter((_, i) => subset & (1 << i));
      const filter = Object.fromEntries(chosen.map((name) => [name, filters[name]]));
      const label = chosen.map((name) => FILTER_LABELS[name](filters[name] as never)).join(', ') || '—';
      for (const { order, sort } of ORDERS) {
        lists.push({
          kind,
          term: search,
          filters: label,
          order,
          query: { pageSize: PAGE_SIZE, pageNumber: 1, search, ...filter, ...sort },
        });
      }
    }
  }
  return lists;
}

/** The terms taken from the organisation: its e-mail domain, and one user's whole e-mail address. */
export async function gridTerms(db: Db, orgId: string): Promise<Record<string, string>> {
  const { rows } = await sql<{ email: string }>`
    select email from users where org_id = ${orgId} and sort_name >= 'm' and email like '%.%@%'
    order by sort_name, id limit 1`.execute(db);
  const email = rows[0]?.email ?? 'nobody@example.com';
  return { domain: `@${email.split('@')[1]}`, 'e-mail': email };
}
