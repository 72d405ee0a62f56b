import {
  orderList,
  webOrderEndpoints,
  type CheckoutInput,
  type EndpointBody,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The cart's shop and checkout, and the web order approval queue with its actions. */

const CATALOGUE_KEY = webOrderEndpoints.catalogue.path;
const QUEUE_KEY = webOrderEndpoints.queue.path;

/** What the signed-in buyer's cart can buy, read while the cart is open. */
export function useShopCatalogue() {
  return useQuery({
    queryKey: [CATALOGUE_KEY],
    queryFn: async () => (await callEndpoint(webOrderEndpoints.catalogue, {})).data,
  });
}

/** Checks the cart out; the shop is read again (its units are held now). */
export function useCheckout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CheckoutInput) =>
      (await callEndpoint(webOrderEndpoints.checkout, { body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: [CATALOGUE_KEY] }),
  });
}

/** Pending web orders with their availability and credit now. */
export function useWebOrderQueue() {
  return useQuery({
    queryKey: [QUEUE_KEY],
    queryFn: async () => (await callEndpoint(webOrderEndpoints.queue, {})).data,
  });
}

/** Approve, reject and the ship method; each reads the queue and the order list again. */
export function useWebOrderActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [QUEUE_KEY] }),
      client.invalidateQueries({ queryKey: [`/${orderList.name}`] }),
    ]);
  return {
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(webOrderEndpoints.approve, { params: { id }, body: {} })).data,
      onSettled: refresh,
    }),
    reject: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(webOrderEndpoints.reject, { params: { id }, body: { reason } })).data,
      onSuccess: refresh,
    }),
    shipMethod: useMutation({
      mutationFn: async ({
        id,
        ...body
      }: { id: number } & EndpointBody<typeof webOrderEndpoints.shipMethod>) =>
        (await callEndpoint(webOrderEndpoints.shipMethod, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
  };
}
