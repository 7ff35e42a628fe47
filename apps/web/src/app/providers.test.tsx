import { useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from './providers.tsx';

it('does not repeat, on mount, a call that failed before the page mounted', async () => {
  const queryClient = createQueryClient();
  const queryFn = vi.fn(async () => {
    throw new Error('refused');
  });
  await queryClient.prefetchQuery({ queryKey: ['early'], queryFn });
  expect(queryFn).toHaveBeenCalledTimes(1);

  function Probe() {
    const { status } = useQuery({ queryKey: ['early'], queryFn });
    return <p>{status}</p>;
  }
  render(
    <AppProviders queryClient={queryClient}>
      <Probe />
    </AppProviders>,
  );
  expect(await screen.findByText('error')).toBeTruthy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(queryFn).toHaveBeenCalledTimes(1);
});
