import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  DEFAULT_USER_COLUMNS,
  JSON_API_MEDIA_TYPE,
  type PreferencesDocument,
  preferencesPath,
  USER_COLUMNS,
  type UserColumn,
} from '@users-admin/contract';
import { type HttpClient, httpClient } from '../../../lib/http/http-client.ts';

/**
 * The optional columns of a preferences answer, known ones only and in the table's order: a column
 * an older or newer server names is left out rather than breaking the table.
 */
export function columnsOf(document: PreferencesDocument | null): UserColumn[] {
  const chosen: unknown = document?.data?.attributes?.users_columns;
  if (!Array.isArray(chosen)) throw new Error('The preferences answer has no columns');
  return USER_COLUMNS.filter((column) => chosen.includes(column));
}

/** The signed-in administrator's chosen columns of the Users page, kept on the server. */
export async function getUserColumns(
  orgId: string,
  { client = httpClient, signal }: { client?: HttpClient; signal?: AbortSignal } = {},
): Promise<UserColumn[]> {
  return columnsOf(
    await client.get<PreferencesDocument>(preferencesPath(orgId), { accept: JSON_API_MEDIA_TYPE, signal }),
  );
}

export const preferencesQueryKeys = {
  all: ['preferences'] as const,
  userColumns: (orgId: string) => [...preferencesQueryKeys.all, orgId, 'usersColumns'] as const,
};

export function getUserColumnsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: preferencesQueryKeys.userColumns(orgId),
    queryFn: ({ signal }) => getUserColumns(orgId, { signal }),
    // Only this administrator changes them, through this page (save-user-columns.ts).
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The columns to show: undefined while they load (the table waits, so that it never draws one set
 * and then another), SPEC.md's columns if they could not be read.
 */
export function useUserColumns(orgId: string | undefined): readonly UserColumn[] | undefined {
  const columns = useQuery({ ...getUserColumnsQueryOptions(orgId ?? ''), enabled: orgId !== undefined });
  if (columns.isError) return DEFAULT_USER_COLUMNS;
  return columns.data;
}
