import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUsersUrlState } from './use-users-url-state.ts';

const history: { location?: ReturnType<typeof useLocation>; navigate?: ReturnType<typeof useNavigate> } = {};

function Probe({ children }: { children: ReactNode }) {
  history.location = useLocation();
  history.navigate = useNavigate();
  return children;
}

function renderUrlState(url: string) {
  const view = renderHook(() => useUsersUrlState(), {
    wrapper: ({ children }) => (
      <MemoryRouter initialEntries={[url]}>
        <Probe>{children}</Probe>
      </MemoryRouter>
    ),
  });
  return { ...view, search: () => history.location?.search ?? '', back: () => act(() => history.navigate?.(-1)) };
}

describe('useUsersUrlState', () => {
  it('gives the same change functions from one address to the next, acting on the current address', () => {
    const view = renderUrlState('/?search=ann');
    const first = view.result.current;
    act(() => first.setPage(3));
    view.back();
    act(() => view.result.current.toggleSort());
    const after = view.result.current;
    for (const name of ['setPage', 'clampPage', 'setPageSize', 'setSearch', 'setFilters', 'toggleSort'] as const) {
      expect(after[name], name).toBe(first[name]);
    }
    // The setter kept from the first render acts on the address as it is now, not as it was then.
    expect(view.search()).toBe('?search=ann&sort=name');
    act(() => first.setPage(2));
    expect(view.search()).toBe('?page=2&search=ann&sort=name');
  });

  it('moves between pages and keeps the rest of the query', () => {
    const view = renderUrlState('/?search=ann&sort=name');
    act(() => view.result.current.setPage(3));
    expect(view.search()).toBe('?page=3&search=ann&sort=name');
    expect(view.result.current.query.pageNumber).toBe(3);
  });

  it('a new search goes back to page 1, and an empty search removes the parameter', () => {
    const view = renderUrlState('/?page=4&search=ann');
    act(() => view.result.current.setSearch('  bob '));
    expect(view.search()).toBe('?search=bob');
    act(() => view.result.current.setPage(2));
    act(() => view.result.current.setSearch(''));
    expect(view.search()).toBe('');
  });

  it('filters and the page size go back to page 1; clearing filters removes them', () => {
    const view = renderUrlState('/?page=4');
    act(() => view.result.current.setFilters({ status: 'pending', isSystemAdmin: true }));
    expect(view.search()).toBe('?status=pending&isSystemAdmin=true');
    act(() => view.result.current.setPage(2));
    act(() => view.result.current.setFilters({}));
    expect(view.search()).toBe('');
    act(() => view.result.current.setPage(2));
    act(() => view.result.current.setPageSize(100));
    expect(view.search()).toBe('?pageSize=100');
  });

  it('toggles the sort and goes back to page 1', () => {
    const view = renderUrlState('/?page=2');
    act(() => view.result.current.toggleSort());
    expect(view.search()).toBe('?sort=name');
    act(() => view.result.current.toggleSort());
    expect(view.search()).toBe('?sort=-name');
  });

  it('drops invalid parameters on the next change and never crashes on them', () => {
    const view = renderUrlState('/?page=zero&pageSize=7&sort=email&status=nope');
    expect(view.result.current.query).toEqual({ pageNumber: 1, pageSize: 25 });
    act(() => view.result.current.setPage(2));
    expect(view.search()).toBe('?page=2');
  });

  it('every change is a history entry, so Back restores the previous query', () => {
    const view = renderUrlState('/');
    act(() => view.result.current.setSearch('ann'));
    act(() => view.result.current.setPage(2));
    view.back();
    expect(view.result.current.query).toEqual({ pageNumber: 1, pageSize: 25, search: 'ann' });
    view.back();
    expect(view.result.current.query).toEqual({ pageNumber: 1, pageSize: 25 });
  });

  it('clamps a page past the end in place', () => {
    const view = renderUrlState('/?page=90');
    act(() => view.result.current.clampPage(17));
    expect(view.search()).toBe('?page=17');
  });
});
