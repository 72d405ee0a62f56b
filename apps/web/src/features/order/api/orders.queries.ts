import {
  dailyOrderEndpoints,
  orderEndpoints,
  orderList,
  type ChangePaymentInput,
  type EndpointBody,
  type OrderHoldReason,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** An order's record, its customer in full, its actions and the daily report. */

const DETAIL_KEY = orderEndpoints.detail.path;

export function useOrderDetail(id: number) {
  return useQuery({
    queryKey: [DETAIL_KEY, id],
    queryFn: async () => (await callEndpoint(orderEndpoints.detail, { params: { id } })).data,
  });
}

/**
 * The customer's names, addresses and phones: read (and audited) only when asked, never kept
 * in the cache after the drawer closes.
 */
export function useOrderCustomer(id: number, asked: boolean) {
  return useQuery({
    queryKey: [orderEndpoints.customer.path, id],
    queryFn: async () => (await callEndpoint(orderEndpoints.customer, { params: { id } })).data,
    enabled: asked,
    gcTime: 0,
    staleTime: Infinity,
  });
}

/** Every write reads the record and the list again. */
export function useOrderActions(id: number) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [DETAIL_KEY, id] }),
      client.invalidateQueries({ queryKey: [`/${orderList.name}`] }),
      client.invalidateQueries({ queryKey: [dailyOrderEndpoints.report.path] }),
    ]);
  return {
    hold: useMutation({
      mutationFn: async (body: { reason: OrderHoldReason; note?: string | null }) =>
        (await callEndpoint(orderEndpoints.hold, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    release: useMutation({
      mutationFn: async () =>
        (await callEndpoint(orderEndpoints.release, { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: async (reason: string | null) =>
        (await callEndpoint(orderEndpoints.cancel, { params: { id }, body: { reason } })).data,
      onSuccess: refresh,
    }),
    changePayment: useMutation({
      mutationFn: async (body: ChangePaymentInput) =>
        (await callEndpoint(orderEndpoints.changePayment, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    editAddress: async (body: EndpointBody<typeof orderEndpoints.editAddress>) => {
      const order = (await callEndpoint(orderEndpoints.editAddress, { params: { id }, body })).data;
      await refresh();
      return order;
    },
  };
}

export function useDailyOrders(range: { from?: string; to?: string }) {
  return useQuery({
    queryKey: [dailyOrderEndpoints.report.path, range],
    queryFn: async () => (await callEndpoint(dailyOrderEndpoints.report, { query: range })).data,
  });
}
