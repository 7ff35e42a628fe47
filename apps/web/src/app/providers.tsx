import CssBaseline from '@mui/material/CssBaseline';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { LocaleThemeProvider } from './locale-theme-provider.tsx';

/**
 * Cache rules from SPEC.md §9: fresh for 60 s, no retry, no refetch on focus or reconnect. A call
 * that failed before the page mounted (main.tsx starts the first ones early) is not made again by
 * the mount either: the page shows its error, as it would had the call failed a moment later.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        retry: false,
        retryOnMount: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  });
}

/** `queryClient`: one the page made before it mounted, with calls already under way. */
export function AppProviders({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <LocaleThemeProvider>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </LocaleThemeProvider>
  );
}
