import {
  backlogOrderList,
  readyOrderList,
  substitutionEndpoints,
  supportOrderEndpoints,
  type CreateSupportOrderInput,
  type OrderProgram,
  type RejectSubstitutionsInput,
  type SubstituteBatchInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Substitutions' and support orders' reads and writes (DOMAIN.md 4.14). */

const SUBSTITUTION_KEYS = [
  substitutionEndpoints.backlog.path,
  substitutionEndpoints.proposals.path,
  substitutionEndpoints.toNotify.path,
];
/** What a substitution or a support order moves besides its own lists: the queues it joins. */
const ORDER_LIST_KEYS = [backlogOrderList, readyOrderList].map((list) => `/${list.name}`);

async function refresh(client: ReturnType<typeof useQueryClient>, keys: readonly string[]) {
  await Promise.all(
    [...keys, ...ORDER_LIST_KEYS].map((key) => client.invalidateQueries({ queryKey: [key] })),
  );
}

export function useSubstitutionBacklog(filter: {
  client_carrier_id?: number | undefined;
  program?: OrderProgram | undefined;
}) {
  return useQuery({
    queryKey: [substitutionEndpoints.backlog.path, filter],
    queryFn: async () =>
      (
        await callEndpoint(substitutionEndpoints.backlog, {
          query: {
            ...(filter.client_carrier_id !== undefined && {
              client_carrier_id: String(filter.client_carrier_id),
            }),
            ...(filter.program !== undefined && { program: filter.program }),
          },
        })
      ).data,
  });
}

export function useSubstitutionList(which: 'proposals' | 'toNotify') {
  const endpoint = substitutionEndpoints[which];
  return useQuery({
    queryKey: [endpoint.path],
    queryFn: async () => (await callEndpoint(endpoint, {})).data,
  });
}

export function useSubstitutionActions() {
  const client = useQueryClient();
  const done = () => refresh(client, SUBSTITUTION_KEYS);
  return {
    propose: useMutation({
      mutationFn: async (body: SubstituteBatchInput) =>
        (await callEndpoint(substitutionEndpoints.propose, { body })).data,
      onSuccess: done,
    }),
    apply: useMutation({
      mutationFn: async (body: SubstituteBatchInput) =>
        (await callEndpoint(substitutionEndpoints.apply, { body })).data,
      onSuccess: done,
    }),
    approve: useMutation({
      mutationFn: async (ids: number[]) =>
        (await callEndpoint(substitutionEndpoints.approve, { body: { substitution_ids: ids } }))
          .data,
      onSuccess: done,
    }),
    reject: useMutation({
      mutationFn: async (body: RejectSubstitutionsInput) =>
        (await callEndpoint(substitutionEndpoints.reject, { body })).data,
      onSuccess: done,
    }),
    notified: useMutation({
      mutationFn: async (ids: number[]) =>
        (await callEndpoint(substitutionEndpoints.notified, { body: { substitution_ids: ids } }))
          .data,
      onSuccess: done,
    }),
  };
}

const SUPPORT_KEYS = [supportOrderEndpoints.list.path];

export function useSupportOrders(awaitingApproval: boolean) {
  return useQuery({
    queryKey: [supportOrderEndpoints.list.path, awaitingApproval],
    queryFn: async () =>
      (
        await callEndpoint(supportOrderEndpoints.list, {
          query: awaitingApproval ? { awaiting_approval: 'true' } : {},
        })
      ).data,
  });
}

export function useSupportOrderActions() {
  const client = useQueryClient();
  const done = () => refresh(client, SUPPORT_KEYS);
  return {
    create: useMutation({
      mutationFn: async (body: CreateSupportOrderInput) =>
        (await callEndpoint(supportOrderEndpoints.create, { body })).data,
      onSuccess: done,
    }),
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(supportOrderEndpoints.approve, { params: { id }, body: {} })).data,
      onSuccess: done,
    }),
    reject: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(supportOrderEndpoints.reject, { params: { id }, body: { reason } }))
          .data,
      onSuccess: done,
    }),
  };
}
