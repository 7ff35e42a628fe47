import { useMutation, useQueryClient } from '@tanstack/react-query';
import { JSON_API_MEDIA_TYPE, jobPath } from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { jobQueryKeys } from './get-job.ts';

/** Asks a job to stop: the batch under way finishes, and the job ends as cancelled. */
export async function cancelJob(orgId: string, jobId: string): Promise<void> {
  await requestJson<unknown>(jobPath(orgId, jobId), { method: 'DELETE', accept: JSON_API_MEDIA_TYPE });
}

export function useCancelJob(orgId: string, jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelJob(orgId, jobId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: jobQueryKeys.job(orgId, jobId) }),
  });
}
