import { leaderEndpoints, productRequestEndpoints, type EndpointBody } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Product requests: the list, the writes, and the model picker of the form. */

export function useProductRequests() {
  return useQuery({
    queryKey: [productRequestEndpoints.list.path],
    queryFn: async () => (await callEndpoint(productRequestEndpoints.list)).data,
  });
}

/** Writes on requests; every one reads the requests and the leader's boxes again. */
export function useProductRequestActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all(
      [productRequestEndpoints.list.path, leaderEndpoints.boxes.path].map((path) =>
        client.invalidateQueries({ queryKey: [path] }),
      ),
    );
  return {
    create: useMutation({
      mutationFn: async (body: EndpointBody<typeof productRequestEndpoints.create>) =>
        (await callEndpoint(productRequestEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(productRequestEndpoints.approve, { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(productRequestEndpoints.cancel, { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
    complete: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(productRequestEndpoints.complete, { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
  };
}

/** Models for the request form's picker. */
export const searchModels = async (search: string) =>
  (await callEndpoint(productRequestEndpoints.modelOptions, { query: { search } })).data;
