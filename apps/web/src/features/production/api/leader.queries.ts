import { leaderEndpoints, type EndpointBody } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The leader console: the boxes of approved requests, the workers, the assignments. */

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

export function useAssignBox() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof leaderEndpoints.assign>) =>
      (await callEndpoint(leaderEndpoints.assign, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [leaderEndpoints.boxes.path] }),
  });
}
