import type { UserListDocument } from '@users-admin/contract';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../../lib/http/http-client.ts';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { getUsers, getUsersQueryOptions, getUsersTotal, getUsersTotalQueryOptions } from './get-users.ts';

const ORG = 'org-1';

function clientAnswering(document: UserListDocument): HttpClient & { get: ReturnType<typeof vi.fn> } {
  return { get: vi.fn(async () => document) } as HttpClient & { get: ReturnType<typeof vi.fn> };
}

const askedParams = (client: { get: ReturnType<typeof vi.fn> }) =>
  Object.fromEntries(new URL(client.get.mock.calls[0]?.[0] as string, 'http://page.invalid').searchParams);

describe('the users list call (SPEC.md §7)', () => {
  it('says whether the total is exact or a lower bound', async () => {
    const url = new URL('http://page.invalid/users');
    const exact = await getUsers(
      ORG,
      { pageSize: 25, pageNumber: 1 },
      { client: clientAnswering(usersDocument(url, 12)) },
    );
    expect(exact).toMatchObject({ total: 12, totalIsLowerBound: false });
    expect(exact.users[0]).toMatchObject({ id: 'u1', firstName: 'user', isExternal: false });

    const capped = await getUsers(
      ORG,
      { pageSize: 25, pageNumber: 1, search: 'example' },
      { client: clientAnswering(usersDocument(url, 1_000, 'gte')) },
    );
    expect(capped).toMatchObject({ total: 1_000, totalIsLowerBound: true });
  });

  it('counts a query exactly with page[total]=exact, on a page of one, whatever its page and order', async () => {
    const client = clientAnswering({
      data: [],
      links: { self: '/', first: '/' },
      meta: { total_count: 512_345, total_count_relation: 'eq' },
    });
    await expect(getUsersTotal(ORG, { search: 'example', status: 'active' }, { client })).resolves.toBe(512_345);
    expect(askedParams(client)).toEqual({
      'page[size]': '1',
      'filter[query]': 'example',
      'filter[status]': 'active',
      'page[total]': 'exact',
    });
  });

  it('refuses a count that is still a lower bound rather than show it as exact', async () => {
    const client = clientAnswering({
      data: [],
      links: { self: '/', first: '/' },
      meta: { total_count: 1_000, total_count_relation: 'gte' },
    });
    await expect(getUsersTotal(ORG, { search: 'example' }, { client })).rejects.toThrow(/count/);
  });

  it('keeps a query’s exact total apart from its pages, one per search and filters', () => {
    const query = { pageSize: 25, pageNumber: 3, search: 'example', sort: 'name' as const };
    const total = getUsersTotalQueryOptions(ORG, query).queryKey;
    expect(total).not.toEqual(getUsersQueryOptions(ORG, query).queryKey);
    expect(getUsersTotalQueryOptions(ORG, { pageSize: 100, pageNumber: 1, search: 'example' }).queryKey).toEqual(total);
    expect(getUsersTotalQueryOptions(ORG, { ...query, isSystemAdmin: false }).queryKey).not.toEqual(total);
  });
});
