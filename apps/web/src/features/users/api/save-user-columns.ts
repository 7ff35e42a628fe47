import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  JSON_API_MEDIA_TYPE,
  type PreferencesDocument,
  preferencesPath,
  USER_COLUMNS,
  type UserColumn,
} from '@users-admin/contract';
import { type HttpClient, HttpError, httpClient } from '../../../lib/http/http-client.ts';
import { columnsOf, preferencesQueryKeys } from './get-user-columns.ts';

/** Saves the chosen columns; answers them as the server kept them. */
export async function saveUserColumns(
  orgId: string,
  columns: readonly UserColumn[],
  { client = httpClient }: { client?: HttpClient } = {},
): Promise<UserColumn[]> {
  const document: PreferencesDocument = {
    data: { type: 'preferences', attributes: { users_columns: USER_COLUMNS.filter((c) => columns.includes(c)) } },
  };
  const path = preferencesPath(orgId);
  // Sent as the page's other calls are, renewing a refused session once (SPEC.md §8).
  const response = await client.send(path, {
    method: 'PATCH',
    credentials: 'include',
    headers: { Accept: JSON_API_MEDIA_TYPE, 'Content-Type': JSON_API_MEDIA_TYPE },
    body: JSON.stringify(document),
  });
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new HttpError(response.status, path, answer);
  return columnsOf(answer as PreferencesDocument | null);
}

/**
 * Shows a column or hides it at once, and saves the choice. The next choice starts from the one on
 * screen, however fast they come; saves run one after another (one scope), so the server keeps the
 * last. A failed save puts back the columns shown before it, and calls `onError`.
 */
export function useToggleUserColumn(orgId: string, { onError }: { onError?: () => void } = {}) {
  const queryClient = useQueryClient();
  const key = preferencesQueryKeys.userColumns(orgId);
  const save = useMutation({
    mutationKey: key,
    scope: { id: key.join('/') },
    mutationFn: ({ columns }: { columns: UserColumn[]; before: UserColumn[] }) => saveUserColumns(orgId, columns),
    onError: (_error, { before }) => {
      queryClient.setQueryData(key, before);
      onError?.();
    },
    onSuccess: (saved) => {
      // A later choice already on screen stays there: its own save answers after this one.
      if (queryClient.isMutating({ mutationKey: key }) === 1) queryClient.setQueryData(key, saved);
    },
  });
  return (column: UserColumn) => {
    const before = queryClient.getQueryData<UserColumn[]>(key) ?? [];
    const columns = USER_COLUMNS.filter((c) => (c === column ? !before.includes(c) : before.includes(c)));
    void queryClient.cancelQueries({ queryKey: key });
    queryClient.setQueryData(key, columns);
    save.mutate({ columns, before });
  };
}
