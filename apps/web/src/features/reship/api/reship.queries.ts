import {
  cancelRequestEndpoints,
  orderList,
  reshipEndpoints,
  type CANCEL_REQUEST_VIEWS,
  type CreateCancelRequestInput,
  type CreateReshipInput,
  type RESHIP_VIEWS,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Cancellation and reship requests, reship orders and the reship statistics. */

const CANCELS_KEY = cancelRequestEndpoints.list.path;
const RESHIPS_KEY = reshipEndpoints.list.path;
const RESHIP_ORDERS_KEY = reshipEndpoints.orders.path;

export function useCancelRequests(view: (typeof CANCEL_REQUEST_VIEWS)[number]) {
  return useQuery({
    queryKey: [CANCELS_KEY, view],
    queryFn: async () =>
      (await callEndpoint(cancelRequestEndpoints.list, { query: { view } })).data,
  });
}

/** Each answer reads the requests and the order list again (the order's status changed). */
export function useCancelRequestActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [CANCELS_KEY] }),
      client.invalidateQueries({ queryKey: [`/${orderList.name}`] }),
    ]);
  const byId = (id: number) => ({ params: { id }, body: {} });
  return {
    create: useMutation({
      mutationFn: async (body: CreateCancelRequestInput) =>
        (await callEndpoint(cancelRequestEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(cancelRequestEndpoints.approve, byId(id))).data,
      onSettled: refresh,
    }),
    complete: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(cancelRequestEndpoints.complete, byId(id))).data,
      onSettled: refresh,
    }),
    deny: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(cancelRequestEndpoints.deny, { params: { id }, body: { reason } }))
          .data,
      onSuccess: refresh,
    }),
  };
}

export function useReships(view: (typeof RESHIP_VIEWS)[number]) {
  return useQuery({
    queryKey: [RESHIPS_KEY, view],
    queryFn: async () => (await callEndpoint(reshipEndpoints.list, { query: { view } })).data,
  });
}

/** What an order needs known before a reship is asked for; read once a number is entered. */
export function useReshipCandidate(orderNumber: string | null) {
  return useQuery({
    queryKey: [reshipEndpoints.candidate.path, orderNumber],
    enabled: !!orderNumber,
    retry: false,
    queryFn: async () =>
      (
        await callEndpoint(reshipEndpoints.candidate, {
          query: { order_number: orderNumber ?? '' },
        })
      ).data,
  });
}

export function useReshipActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [RESHIPS_KEY] }),
      client.invalidateQueries({ queryKey: [RESHIP_ORDERS_KEY] }),
      client.invalidateQueries({ queryKey: [`/${orderList.name}`] }),
    ]);
  return {
    create: useMutation({
      mutationFn: async (body: CreateReshipInput) =>
        (await callEndpoint(reshipEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(reshipEndpoints.approve, { params: { id }, body: {} })).data,
      onSettled: refresh,
    }),
    deny: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(reshipEndpoints.deny, { params: { id }, body: { reason } })).data,
      onSuccess: refresh,
    }),
  };
}

export function useReshipOrders() {
  return useQuery({
    queryKey: [RESHIP_ORDERS_KEY],
    queryFn: async () => (await callEndpoint(reshipEndpoints.orders, {})).data,
  });
}

export function useReshipStatistics(range: { from: string; to: string }) {
  return useQuery({
    queryKey: [reshipEndpoints.statistics.path, range.from, range.to],
    queryFn: async () => (await callEndpoint(reshipEndpoints.statistics, { query: range })).data,
  });
}
