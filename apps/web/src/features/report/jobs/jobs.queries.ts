import {
  myWorkEndpoints,
  teamJobEndpoints,
  teamJobList,
  workJobEndpoints,
  workJobList,
  type CountScanInput,
  type CreateWorkJobInput,
  type WorkJobKind,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The work jobs' reads and steps, each step refreshing every view of the jobs. */

const MY_JOBS = [myWorkEndpoints.jobs.path];
const MY_COUNTS = myWorkEndpoints.counts.path;

export function useRefreshJobs() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [
        `/${workJobList.name}`,
        `/${teamJobList.name}`,
        workJobEndpoints.detail.path,
        teamJobEndpoints.detail.path,
        myWorkEndpoints.jobs.path,
        MY_COUNTS,
        teamJobEndpoints.summaries.path,
      ].map((key) => client.invalidateQueries({ queryKey: [key] })),
    );
}

/** A job's record, through the endpoint of the page that shows it. */
export function useJobDetail(id: number, page: 'jobs' | 'team') {
  const endpoint = page === 'jobs' ? workJobEndpoints.detail : teamJobEndpoints.detail;
  return useQuery({
    queryKey: [endpoint.path, id],
    queryFn: async () => (await callEndpoint(endpoint, { params: { id } })).data,
  });
}

/** The people a job of the kind may be given to, through the page's endpoint. */
export function useAssignees(kind: WorkJobKind | undefined, page: 'jobs' | 'team') {
  const endpoint = page === 'jobs' ? workJobEndpoints.assignees : teamJobEndpoints.assignees;
  return useQuery({
    queryKey: [endpoint.path, kind],
    enabled: kind !== undefined,
    queryFn: async () => (await callEndpoint(endpoint, { query: { kind: kind! } })).data,
  });
}

export function useTemplates() {
  return useQuery({
    queryKey: [workJobEndpoints.templates.path],
    queryFn: async () => (await callEndpoint(workJobEndpoints.templates, {})).data,
  });
}

export const createJob = async (body: CreateWorkJobInput) =>
  (await callEndpoint(workJobEndpoints.create, { body })).data;

export const saveTemplate = async (id: number, name: string) =>
  (await callEndpoint(workJobEndpoints.saveTemplate, { params: { id }, body: { name } })).data;

export const cancelJob = async (id: number, reason: string | null) =>
  (await callEndpoint(workJobEndpoints.cancel, { params: { id }, body: { reason } })).data;

export const verifyJob = async (id: number) =>
  (await callEndpoint(teamJobEndpoints.verify, { params: { id }, body: {} })).data;

export const reopenJob = async (id: number, reason: string | null) =>
  (await callEndpoint(teamJobEndpoints.reopen, { params: { id }, body: { reason } })).data;

export const reassignJob = async (id: number, assigneeIds: number[]) =>
  (
    await callEndpoint(teamJobEndpoints.reassign, {
      params: { id },
      body: { assignee_ids: assigneeIds },
    })
  ).data;

export function useMyJobs() {
  return useQuery({
    queryKey: MY_JOBS,
    queryFn: async () => (await callEndpoint(myWorkEndpoints.jobs, {})).data,
  });
}

export function useMyCounts() {
  return useQuery({
    queryKey: [MY_COUNTS],
    queryFn: async () => (await callEndpoint(myWorkEndpoints.counts, { query: {} })).data,
  });
}

/** Start, finish and note one of my jobs, refreshing my jobs and counts. */
export function useMyJobSteps() {
  const refresh = useRefreshJobs();
  const options = { onSuccess: refresh };
  return {
    start: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(myWorkEndpoints.start, { params: { id }, body: {} })).data,
      ...options,
    }),
    finish: useMutation({
      mutationFn: async ({ id, doneQty }: { id: number; doneQty: number | null }) =>
        (
          await callEndpoint(myWorkEndpoints.finish, {
            params: { id },
            body: { done_qty: doneQty },
          })
        ).data,
      ...options,
    }),
    note: useMutation({
      mutationFn: async ({ id, note }: { id: number; note: string }) =>
        (await callEndpoint(myWorkEndpoints.note, { params: { id }, body: { note } })).data,
      ...options,
    }),
  };
}

export const countScan = async (id: number, body: CountScanInput) =>
  (await callEndpoint(myWorkEndpoints.countScan, { params: { id }, body })).data;

export function useWorkerSummaries(range: { from: string; to: string }) {
  return useQuery({
    queryKey: [teamJobEndpoints.summaries.path, range.from, range.to],
    queryFn: async () => (await callEndpoint(teamJobEndpoints.summaries, { query: range })).data,
  });
}

export const exportSummaries = async (range: { from: string; to: string }) =>
  (
    await callEndpoint(teamJobEndpoints.exportSummaries, {
      body: { ...range, format: 'csv' },
    })
  ).data;
