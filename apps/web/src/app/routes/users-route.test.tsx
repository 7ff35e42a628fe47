import { screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { getUsersQueryOptions } from '../../features/users/api/get-users.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { UsersRoute } from './users-route.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

it('shows a list call that failed before the session had answered, and does not make it again', async () => {
  let answerSession: (response: Response) => void = () => undefined;
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      calls.push(input);
      if (input === '/apis/oidc/userinfo') return new Promise<Response>((resolve) => (answerSession = resolve));
      if (input.startsWith('/apis/accounts/')) return new Response('{}', { status: 500 });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  const { queryClient } = renderWithProviders(<UsersRoute />);
  await vi.waitFor(() => expect(calls).toContain('/apis/oidc/userinfo'));

  // The page's first list call, started early from the session's answer (main.tsx), fails
  // before the page has seen the session.
  await queryClient.prefetchQuery(getUsersQueryOptions('o1', { pageNumber: 1, pageSize: 25 }));
  answerSession(
    new Response(JSON.stringify({ org_id: 'o1', locale: 'en' }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    }),
  );

  expect(await screen.findByText('There was an error loading the users. Please try again.')).toBeTruthy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  // The list's, not the chosen columns'.
  expect(calls.filter((call) => call.startsWith('/apis/accounts/') && call.includes('/users'))).toHaveLength(1);
});
