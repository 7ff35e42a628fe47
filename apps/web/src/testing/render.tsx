import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { LocaleThemeProvider } from '../app/locale-theme-provider.tsx';
import { createQueryClient } from '../app/providers.tsx';

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
        <LocaleThemeProvider>
          <QueryClientProvider client={queryClient}>
            {ui}
            <LocationProbe />
          </QueryClientProvider>
        </LocaleThemeProvider>
      </MemoryRouter>,
    ),
  };
}
