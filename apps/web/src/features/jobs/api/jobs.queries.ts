import {
  cancelJobEndpoint,
  listJobsEndpoint,
  retryJobEndpoint,
  type JobsQuery,
} from '@inventory/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const JOBS_KEY = [listJobsEndpoint.path] as const;

/** A page of jobs, asked again every few seconds while the page is open: jobs move by themselves. */
export function useJobs(query: JobsQuery) {
  return useQuery({
    queryKey: [...JOBS_KEY, query],
    queryFn: async () => (await callEndpoint(listJobsEndpoint, { query })).data,
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

/** Retries a failed job or cancels a waiting one; the list is read again after. */
export function useJobAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'retry' | 'cancel' }) =>
      callEndpoint(action === 'retry' ? retryJobEndpoint : cancelJobEndpoint, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: JOBS_KEY }),
  });
}
