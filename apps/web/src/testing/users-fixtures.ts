import type { UserListDocument, UserResource, UserStatus } from '@users-admin/contract';

const STATUSES: UserStatus[] = ['active', 'pending', 'inactive', 'disabled', 'active'];

/** The n-th demo user (1-based): every 5th is external, every 7th a System Admin. */
export function demoUser(n: number): UserResource {
  return {
    type: 'users',
    id: `u${n}`,
    attributes: {
      name: `User ${String(n).padStart(3, '0')}`,
      email: `user.${n}@acme.example`,
      initials: n % 3 === 0 ? null : `U${n % 10}`,
      first_name: 'user',
      last_name: `number${n}`,
      status: STATUSES[(n - 1) % STATUSES.length] ?? 'active',
      is_external: n % 5 === 0,
      is_system_admin: n % 7 === 0,
      last_sign_in_at: n % 4 === 0 ? null : new Date(Date.UTC(2026, 10, 1) - n * 3_600_000).toISOString(),
      created_at: new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString(),
    },
  };
}

/** Answers the users list the way the server does, for a given total (exact unless told "gte"). */
export function usersDocument(url: URL, total: number, relation: 'eq' | 'gte' = 'eq'): UserListDocument {
  const size = Number(url.searchParams.get('page[size]') ?? 25);
  const number = Number(url.searchParams.get('page[number]') ?? 1);
  const first = (number - 1) * size + 1;
  const last = Math.min(total, number * size);
  const data = [];
  for (let n = first; n <= last; n++) data.push(demoUser(n));
  const links = { self: url.pathname, first: url.pathname, ...(relation === 'eq' ? { last: url.pathname } : {}) };
  return { data, links, meta: { total_count: total, total_count_relation: relation } };
}
