import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { JSON_API_MEDIA_TYPE } from '@users-admin/contract';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers.tsx';
import { getUsersQueryOptions, useUsers } from './get-users.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it('does not call again at once for a list whose call failed while the organisation was not known yet', async () => {
  const fetch = vi.fn(async () => new Response(null, { status: 500 }));
  vi.stubGlobal('fetch', fetch);
  const queryClient = createQueryClient();
  const query = { pageNumber: 1, pageSize: 25 };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  // The page mounts before the session has answered…
  const { result, rerender } = renderHook(({ orgId }: { orgId?: string }) => useUsers(orgId, query), {
    wrapper,
    initialProps: {},
  });
  // …while the list call started with the session fails first.
  await queryClient.prefetchQuery(getUsersQueryOptions('o1', query));
  expect(fetch).toHaveBeenCalledTimes(1);

  rerender({ orgId: 'o1' });
  await waitFor(() => expect(result.current.isError).toBe(true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(fetch).toHaveBeenCalledTimes(1);

  // Trying again calls again.
  await result.current.refetch();
  expect(fetch).toHaveBeenCalledTimes(2);
  expect((fetch.mock.calls[1] as unknown[] | undefined)?.[1]).toMatchObject({
    headers: { Accept: JSON_API_MEDIA_TYPE },
  });

  // A minute later the failure is old, like an answer: the page asks again.
  const later = Date.now() + 61_000;
  vi.spyOn(Date, 'now').mockReturnValue(later);
  rerender({ orgId: 'o1' });
  await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
});
