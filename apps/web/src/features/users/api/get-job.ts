import { queryOptions, useQuery } from '@tanstack/react-query';
import { type JobDocument, type JobStatus, JSON_API_MEDIA_TYPE, jobPath } from '@users-admin/contract';
import { requestJson } from '../../../lib/http/json-request.ts';
import { usersQueryKeys } from './get-users.ts';

export type Job = JobDocument['data']['attributes'] & { id: string };

/** How often a running job is asked about. */
export const JOB_POLL_MS = 1000;

export const isFinished = (status: JobStatus) => status === 'done' || status === 'cancelled' || status === 'failed';

export async function getJob(orgId: string, jobId: string, signal?: AbortSignal): Promise<Job> {
  const answer = await requestJson<JobDocument>(jobPath(orgId, jobId), {
    method: 'GET',
    accept: JSON_API_MEDIA_TYPE,
    signal,
  });
  if (!answer.body?.data) throw new Error('The job answer is not a job');
  return { ...answer.body.data.attributes, id: answer.body.data.id };
}

export const jobQueryKeys = {
  job: (orgId: string, jobId: string) => [...usersQueryKeys.all, orgId, 'job', jobId] as const,
};

export function getJobQueryOptions(orgId: string, jobId: string) {
  return queryOptions({
    queryKey: jobQueryKeys.job(orgId, jobId),
    queryFn: ({ signal }) => getJob(orgId, jobId, signal),
    // Asked again until it ends; a failed poll is tried again rather than ending the progress.
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data.status) ? false : JOB_POLL_MS),
    retry: 3,
    staleTime: 0,
  });
}

/** A bulk action's job, followed until it ends. */
export function useJob(orgId: string, jobId: string) {
  return useQuery(getJobQueryOptions(orgId, jobId));
}
