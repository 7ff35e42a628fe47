import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { createQueryClient } from '../app/providers.tsx';
import { theme } from '../app/theme.ts';

/** The current location, readable from a test. */
export const locationRef: { current: { pathname: string; search: string } | undefined } = { current: undefined };

function LocationProbe() {
  locationRef.current = useLocation();
  return null;
}

/** Renders with the app's providers and a memory router at `url`. */
export function renderWithProviders(ui: ReactElement, { url = '/' }: { url?: string } = {}) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(
      <MemoryRouter initialEntries={[url]}>
        <ThemeProvider theme={theme}>
          <QueryClientProvider client={queryClient}>
            {ui}
            <LocationProbe />
          </QueryClientProvider>
        </ThemeProvider>
      </MemoryRouter>,
    ),
  };
}
