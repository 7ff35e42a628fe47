import { describe, expect, it } from 'vitest';
import { toUserListParams, toUserListQuery, userListQuerySchema } from './users.ts';

const parse = (params: Record<string, string>) => userListQuerySchema.safeParse(params);

describe('the users list query', () => {
  it('applies the defaults: page 1 of 25, unsorted, no filters', () => {
    const parsed = parse({});
    expect(parsed.success && toUserListQuery(parsed.data)).toEqual({ pageSize: 25, pageNumber: 1 });
  });

  it('reads every parameter and writes them back, defaults left out', () => {
    const wire = {
      'page[size]': '50',
      'page[number]': '3',
      sort: '-name',
      'filter[query]': '50%_off\\',
      'filter[status]': 'pending',
      'filter[is_system_admin]': 'false',
      'page[total]': 'exact',
    };
    const parsed = parse(wire);
    if (!parsed.success) throw parsed.error;
    const query = toUserListQuery(parsed.data);
    expect(query).toEqual({
      pageSize: 50,
      pageNumber: 3,
      sort: '-name',
      search: '50%_off\\',
      status: 'pending',
      isSystemAdmin: false,
      exactTotal: true,
    });
    expect(Object.fromEntries(toUserListParams(query))).toEqual(wire);
    expect(toUserListParams({ pageSize: 25, pageNumber: 1 }).toString()).toBe('');
  });

  it.each([
    [{ 'page[size]': '0' }, 'page[size] must be a whole number from 1 to 100'],
    [{ 'page[size]': '1.5' }, 'page[size] must be a whole number from 1 to 100'],
    [{ 'page[number]': '-1' }, 'page[number] must be a whole number of at least 1'],
    [{ sort: 'email' }, 'sort must be "name" or "-name"'],
    [{ 'page[total]': 'estimated' }, 'page[total] must be "exact"'],
  ])('says in words what is accepted for %o', (params, message) => {
    const parsed = parse(params);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('refuses parameters it does not know', () => {
    const parsed = parse({ 'filter[email]': 'x' });
    expect(parsed.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['filter[email]'] });
  });
});
