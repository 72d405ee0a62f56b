import { repairEndpoints as E, type EndpointBody } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/**
 * The repair line's reads and writes. Every key starts with 'repair', so that a ticket's step
 * refreshes every queue and board it shows on.
 */

const REPAIR = 'repair';

const read = <K extends keyof typeof E>(key: K) => ({
  queryKey: [REPAIR, E[key].path],
});

export function useRecentTickets() {
  return useQuery({ ...read('recent'), queryFn: async () => (await callEndpoint(E.recent)).data });
}
export function useSortingQueue() {
  return useQuery({
    ...read('sortingQueue'),
    queryFn: async () => (await callEndpoint(E.sortingQueue)).data,
  });
}
export function useLeaderBoard() {
  return useQuery({
    ...read('leaderBoard'),
    queryFn: async () => (await callEndpoint(E.leaderBoard)).data,
  });
}
export function useRequestableParts() {
  return useQuery({ ...read('parts'), queryFn: async () => (await callEndpoint(E.parts)).data });
}
export function useWorkerQueue() {
  return useQuery({
    ...read('workerQueue'),
    queryFn: async () => (await callEndpoint(E.workerQueue)).data,
  });
}
export function usePartLocations() {
  return useQuery({
    ...read('partLocations'),
    queryFn: async () => (await callEndpoint(E.partLocations)).data,
  });
}
export function useTestingQueue() {
  return useQuery({
    ...read('testingQueue'),
    queryFn: async () => (await callEndpoint(E.testingQueue)).data,
  });
}
/** One ticket with its parts, tests and timeline; read while `id` is set. */
export function useTicket(id: number | null) {
  return useQuery({
    queryKey: [REPAIR, E.detail.path, id],
    queryFn: async () => (await callEndpoint(E.detail, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}
/** A device's tickets, by the IMEI scanned; read while `code` is set. */
export function useRepairHistory(code: string | null) {
  return useQuery({
    queryKey: [REPAIR, E.history.path, code],
    queryFn: async () => (await callEndpoint(E.history, { query: { code: code! } })).data,
    enabled: code !== null,
    retry: false,
  });
}
export function useRepairStatistics(range: { from: string; to: string }) {
  return useQuery({
    queryKey: [REPAIR, E.statistics.path, range.from, range.to],
    queryFn: async () => (await callEndpoint(E.statistics, { query: range })).data,
  });
}

export function useRequestRepair() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof E.request>) =>
      (await callEndpoint(E.request, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [REPAIR] }),
  });
}

/** The steps taken on one ticket, by their endpoint. */
type TicketActions = Pick<
  typeof E,
  | 'sort'
  | 'assign'
  | 'beyondRepair'
  | 'requestParts'
  | 'cancel'
  | 'clock'
  | 'issuePart'
  | 'waiting'
  | 'note'
  | 'complete'
  | 'test'
>;

/** A step on a ticket: answers the ticket after it and refreshes the repair line's reads. */
export function useTicketAction<K extends keyof TicketActions>(key: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: EndpointBody<TicketActions[K]> }) =>
      (await callEndpoint(E[key] as TicketActions[K], { params: { id }, body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [REPAIR] }),
  });
}
