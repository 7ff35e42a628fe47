// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { activeFilterCount, nextSort, parseUsersSearchParams, writeUsersSearchParams } from './users-url-query.ts';

const parse = (search: string) => parseUsersSearchParams(new URLSearchParams(search));

describe('parseUsersSearchParams', () => {
  it('gives the defaults for an empty query', () => {
    expect(parse('')).toEqual({ pageNumber: 1, pageSize: 25 });
  });

  it('reads every parameter', () => {
    expect(
      parse(
        'page=3&pageSize=50&search=ann&status=pending&isSystemAdmin=false&isExternal=true&lastSignIn=never&sort=-name',
      ),
    ).toEqual({
      pageNumber: 3,
      pageSize: 50,
      search: 'ann',
      status: 'pending',
      isSystemAdmin: false,
      isExternal: true,
      lastSignIn: 'never',
      sort: '-name',
    });
  });

  it.each([
    ['page=0', {}],
    ['page=-2', {}],
    ['page=2.5', {}],
    ['page=abc', {}],
    ['page=9999999999', {}],
    ['pageSize=10', {}],
    ['pageSize=1000', {}],
    ['sort=email', {}],
    ['sort=NAME', {}],
    ['status=archived', {}],
    ['status=disabled', {}],
    ['isSystemAdmin=yes', {}],
    ['isExternal=1', {}],
    ['lastSignIn=60d', {}],
    ['lastSignIn=NEVER', {}],
    ['search=%20%20', {}],
    [`search=${'a'.repeat(201)}`, {}],
  ])('ignores the invalid %s', (search, expected) => {
    expect(parse(search)).toEqual({ pageNumber: 1, pageSize: 25, ...expected });
  });
});

describe('writeUsersSearchParams', () => {
  it('leaves defaults out and keeps parameters that are not its own', () => {
    const written = writeUsersSearchParams(
      { pageNumber: 1, pageSize: 25, search: 'x', isSystemAdmin: true },
      new URLSearchParams('utm=mail&page=4'),
    );
    expect(written.toString()).toBe('utm=mail&search=x&isSystemAdmin=true');
  });

  it('round-trips through the parser', () => {
    const query = {
      pageNumber: 7,
      pageSize: 100,
      search: 'a b',
      status: 'inactive',
      isExternal: false,
      lastSignIn: '30d',
      sort: 'name',
    } as const;
    expect(parseUsersSearchParams(writeUsersSearchParams(query))).toEqual(query);
  });
});

it('sorts unsorted → ascending → descending → ascending', () => {
  expect(nextSort(undefined)).toBe('name');
  expect(nextSort('name')).toBe('-name');
  expect(nextSort('-name')).toBe('name');
});

it('counts the four filters of the popover', () => {
  const query = parse('status=active&isSystemAdmin=true&isExternal=false&lastSignIn=not90d&search=x&page=2');
  expect(activeFilterCount(query)).toBe(4);
  expect(activeFilterCount(parse('isExternal=false'))).toBe(1);
});
