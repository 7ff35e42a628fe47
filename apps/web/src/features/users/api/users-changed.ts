import type { QueryClient } from '@tanstack/react-query';
import { usersQueryKeys } from './get-users.ts';

/** After an action: every list, total and user of the organisation is read again when shown. */
export function usersChanged(queryClient: QueryClient, orgId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...usersQueryKeys.all, orgId] });
}
