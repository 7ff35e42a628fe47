import type { QueryClient } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App({ queryClient }: { queryClient?: QueryClient } = {}) {
  return (
    // No transitions: the page's state is the address, and a change made right after another (a new
    // page size, then a search) must build on it. In a transition the address moves on before the page
    // renders it, and the second change would be computed from the old address and undo the first.
    <BrowserRouter useTransitions={false}>
      <AppProviders {...(queryClient ? { queryClient } : {})}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
