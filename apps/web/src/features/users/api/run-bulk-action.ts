import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type BulkActionDocument,
  type BulkResultDocument,
  bulkPath,
  type JobDocument,
  JSON_API_MEDIA_TYPE,
  type UserAction,
  type UserActionResult,
} from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { usersChanged } from './users-changed.ts';

/** Whom a bulk action is for: users named by id, or every user the list's query string matches. */
export type BulkTarget = { ids: string[] } | { filter: string };

export interface BulkRequest {
  action: UserAction;
  /** For `set_user_type`. */
  isSystemAdmin?: boolean;
  target: BulkTarget;
}

/** Users named by id are answered at once; every match is a job, followed by its id. */
export type BulkOutcome =
  | { kind: 'results'; done: number; skipped: number; results: UserActionResult[] }
  | { kind: 'job'; jobId: string };

export async function runBulkAction(orgId: string, request: BulkRequest): Promise<BulkOutcome> {
  const document: BulkActionDocument = {
    data: {
      type: 'bulk-actions',
      attributes: {
        action: request.action,
        ...(request.isSystemAdmin === undefined ? {} : { is_system_admin: request.isSystemAdmin }),
        ...request.target,
      },
    },
  };
  const answer = await requestJson<BulkResultDocument | JobDocument>(bulkPath(orgId), {
    method: 'POST',
    accept: JSON_API_MEDIA_TYPE,
    body: document,
  });
  if (answer.status === 202) return { kind: 'job', jobId: jobIdOf(answer.body, answer.headers.get('location')) };
  const attributes = (answer.body as BulkResultDocument | null)?.data.attributes;
  if (!attributes) throw new Error('The bulk answer has no results');
  return { kind: 'results', done: attributes.done, skipped: attributes.skipped, results: attributes.results };
}

/** The job's id: from the job the answer holds, else the last segment of its Location. */
function jobIdOf(body: unknown, location: string | null): string {
  const id = (body as JobDocument | null)?.data?.id ?? location?.split('/').filter(Boolean).at(-1);
  if (!id) throw new Error('The bulk answer names no job');
  return decodeURIComponent(id);
}

/** Runs a bulk action; answered at once, the lists are read again (a job's end does it for a job). */
export function useRunBulkAction(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BulkRequest) => runBulkAction(orgId, request),
    onSuccess: (outcome) => {
      if (outcome.kind === 'results') void usersChanged(queryClient, orgId);
    },
  });
}
