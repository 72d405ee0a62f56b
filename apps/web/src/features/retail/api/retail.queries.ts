import {
  createPortalUserEndpoint,
  deactivateRetailerEndpoint,
  linkAgentEndpoint,
  portalUsersEndpoint,
  reactivateRetailerEndpoint,
  retailerDetailEndpoint,
  retailerEndpoints,
  retailerOrdersEndpoint,
  setResaleCertificateEndpoint,
  unlinkAgentEndpoint,
  type CreatePortalUserInput,
  type LinkAgentInput,
  type ResaleCertificateInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callEndpoint } from '../../../shell/http-client';

/**
 * A retailer's detail and portal users sit under the retailer list's key, so that the toolkit's
 * refresh after an edit updates the open drawer as well.
 */
const retailersKey = [retailerEndpoints.list.path] as const;

export function useRetailerDetail(id: number | null) {
  return useQuery({
    queryKey: [...retailersKey, 'detail', id],
    queryFn: async () => (await callEndpoint(retailerDetailEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

export function usePortalUsers(id: number) {
  return useQuery({
    queryKey: [...retailersKey, 'portal-users', id],
    queryFn: async () => (await callEndpoint(portalUsersEndpoint, { params: { id } })).data,
  });
}

export function useRetailerOrders(id: number) {
  return useQuery({
    queryKey: [...retailersKey, 'orders', id],
    queryFn: async () => (await callEndpoint(retailerOrdersEndpoint, { params: { id } })).data,
  });
}

/** Reads a retailer anew: its list row, detail and portal users. */
export function useRefreshRetailers() {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: retailersKey }), [client]);
}

/** A retailer's own actions: its certificate, deactivation, its portal users and agents. */
export function useRetailerActions(id: number) {
  const refresh = useRefreshRetailers();
  return {
    certificate: useMutation({
      mutationFn: async (body: ResaleCertificateInput) =>
        (await callEndpoint(setResaleCertificateEndpoint, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    deactivate: useMutation({
      mutationFn: async () =>
        (await callEndpoint(deactivateRetailerEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
    reactivate: useMutation({
      mutationFn: async () =>
        (await callEndpoint(reactivateRetailerEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
    createPortalUser: useMutation({
      mutationFn: async (body: CreatePortalUserInput) =>
        (await callEndpoint(createPortalUserEndpoint, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    linkAgent: useMutation({
      mutationFn: async (body: LinkAgentInput) =>
        (await callEndpoint(linkAgentEndpoint, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    unlinkAgent: useMutation({
      mutationFn: async (userId: number) =>
        callEndpoint(unlinkAgentEndpoint, { params: { id, userId } }),
      onSuccess: refresh,
    }),
  };
}
