import { USER_STATUSES, type UserListQuery } from '@users-admin/contract';
import { seedStatusShare } from '../src/db/seed-data.ts';

export interface Shape {
  name: string;
  query: UserListQuery;
  /** A page more than 100,000 users from both ends of its list (a larger budget). */
  far: boolean;
}

/**
 * The lists without a search of an organisation of `users` generated users: each order with each
 * filter (or none), at its first, middle and last page. A filtered list's size is estimated from
 * the generator's shares; the middle and last pages are asked of that estimate, and a page past a
 * list's end is still a request that costs what its count and an empty page cost.
 */
export function listShapes(users: number): Shape[] {
  const filters: { label: string; filter: Partial<UserListQuery>; share: number }[] = [
    { label: 'everyone', filter: {}, share: 1 },
    ...USER_STATUSES.map((status) => ({ label: status, filter: { status }, share: seedStatusShare[status] })),
    { label: 'System Admins', filter: { isSystemAdmin: true }, share: 0.06 },
    { label: 'Users', filter: { isSystemAdmin: false }, share: 0.94 },
    { label: 'third party', filter: { isExternal: true }, share: 0.15 },
    { label: 'platform', filter: { isExternal: false }, share: 0.85 },
    // The generator's sign-ins (seed-data.ts lastSignIn): pending users and one in 25 others never sign in.
    { label: 'signed in within 30 days', filter: { lastSignIn: '30d' }, share: 0.43 },
    { label: 'not signed in within 90 days', filter: { lastSignIn: 'not90d' }, share: 0.4 },
    { label: 'never signed in', filter: { lastSignIn: 'never' }, share: 0.155 },
  ];
  const orders = [
    { label: 'joined', sort: {} },
    { label: 'by name', sort: { sort: 'name' as const } },
    { label: 'by -name', sort: { sort: '-name' as const } },
  ];
  const shapes: Shape[] = [];
  for (const { label, filter, share } of filters) {
    const size = Math.round(users * share);
    const lastPage = Math.max(1, Math.ceil(size / 25));
    for (const order of orders) {
      for (const [at, pageNumber] of [
        ['first', 1],
        ['middle', Math.ceil(lastPage / 2)],
        ['last', lastPage],
      ] as const) {
        const offset = (pageNumber - 1) * 25;
        shapes.push({
          name: `${label}, ${order.label}, ${at} page`,
          query: { pageSize: 25, pageNumber, ...filter, ...order.sort },
          far: Math.min(offset, size - offset) > 100_000,
        });
      }
    }
  }
  return shapes;
}
