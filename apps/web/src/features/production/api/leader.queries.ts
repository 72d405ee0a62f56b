import { leaderEndpoints, workerEndpoints, type EndpointBody } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/**
 * The leader console: the boxes of approved requests, the workers, the assignments and
 * reassignments, the failures to review and the re-grades.
 */

export function useLeaderBoxes() {
  return useQuery({
    queryKey: [leaderEndpoints.boxes.path],
    queryFn: async () => (await callEndpoint(leaderEndpoints.boxes)).data,
  });
}

export function useProductionWorkers() {
  return useQuery({
    queryKey: [leaderEndpoints.workers.path],
    queryFn: async () => (await callEndpoint(leaderEndpoints.workers)).data,
  });
}

/** The devices of a box in production with their workers; read while `boxId` is set. */
export function useBoxDevices(boxId: number | null) {
  return useQuery({
    queryKey: [leaderEndpoints.boxDevices.path, boxId],
    queryFn: async () =>
      (await callEndpoint(leaderEndpoints.boxDevices, { params: { id: boxId! } })).data,
    enabled: boxId !== null,
  });
}

export function useProductionFailures() {
  return useQuery({
    queryKey: [leaderEndpoints.failures.path],
    queryFn: async () => (await callEndpoint(leaderEndpoints.failures)).data,
  });
}

/** What a leader's write changes: the boxes, their devices, the failures, the worker queues. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [
        leaderEndpoints.boxes.path,
        leaderEndpoints.boxDevices.path,
        leaderEndpoints.failures.path,
        workerEndpoints.queue.path,
      ].map((path) => client.invalidateQueries({ queryKey: [path] })),
    );
}

export function useAssignBox() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof leaderEndpoints.assign>) =>
      (await callEndpoint(leaderEndpoints.assign, { body })).data,
    onSuccess: refresh,
  });
}

export function useReassign() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof leaderEndpoints.reassign>) =>
      (await callEndpoint(leaderEndpoints.reassign, { body })).data,
    onSuccess: refresh,
  });
}

export function useRegrade() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof leaderEndpoints.regrade>) =>
      (await callEndpoint(leaderEndpoints.regrade, { body })).data,
    onSuccess: refresh,
  });
}
