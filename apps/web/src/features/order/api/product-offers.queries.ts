import {
  orderList,
  productOfferEndpoints,
  type CreateProductOfferInput,
  type EndpointBody,
  type PRODUCT_OFFER_VIEWS,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Product offers: the open or closed ones, a new offer and the answers to one. */

const OFFERS_KEY = productOfferEndpoints.list.path;

export function useProductOffers(view: (typeof PRODUCT_OFFER_VIEWS)[number]) {
  return useQuery({
    queryKey: [OFFERS_KEY, view],
    queryFn: async () => (await callEndpoint(productOfferEndpoints.list, { query: { view } })).data,
  });
}

/** Enter, counter, accept, reject, convert; each reads the offers (and the orders) again. */
export function useProductOfferActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [OFFERS_KEY] });
  const byId = (id: number) => ({ params: { id }, body: {} });
  return {
    create: useMutation({
      mutationFn: async (body: CreateProductOfferInput) =>
        (await callEndpoint(productOfferEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    counter: useMutation({
      mutationFn: async ({
        id,
        ...body
      }: { id: number } & EndpointBody<typeof productOfferEndpoints.counter>) =>
        (await callEndpoint(productOfferEndpoints.counter, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    accept: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(productOfferEndpoints.accept, byId(id))).data,
      onSettled: refresh,
    }),
    reject: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(productOfferEndpoints.reject, { params: { id }, body: { reason } }))
          .data,
      onSuccess: refresh,
    }),
    convert: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(productOfferEndpoints.convert, byId(id))).data,
      onSettled: () =>
        Promise.all([refresh(), client.invalidateQueries({ queryKey: [`/${orderList.name}`] })]),
    }),
  };
}
