import {
  closeInvoiceEndpoint,
  decideDiscrepanciesEndpoint,
  inboundShipmentEndpoints,
  invoiceImeiEndpoints,
  purchaseInvoiceDetailEndpoint,
  purchaseInvoiceEndpoints,
  reconcileInvoiceEndpoint,
  type DecideDiscrepanciesInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callEndpoint } from '../../../shell/http-client';

/**
 * An invoice's detail sits under the invoice list's key, so that the toolkit's refresh after an
 * edit updates the open drawer as well.
 */
const invoicesKey = [purchaseInvoiceEndpoints.list.path] as const;

export function useInvoiceDetail(id: number | null) {
  return useQuery({
    queryKey: [...invoicesKey, 'detail', id],
    queryFn: async () =>
      (await callEndpoint(purchaseInvoiceDetailEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** Refreshes what an invoice's reconciliation changes: invoices, their IMEIs, shipments. */
export function useRefreshInvoices() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [invoicesKey, [invoiceImeiEndpoints.list.path], [inboundShipmentEndpoints.list.path]].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      ),
    [client],
  );
}

/** The steps of an invoice after receiving: reconcile, decide discrepancies, close. */
export function useInvoiceSteps(id: number) {
  const refresh = useRefreshInvoices();
  return {
    reconcile: useMutation({
      mutationFn: async () =>
        (await callEndpoint(reconcileInvoiceEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
    decide: useMutation({
      mutationFn: async (body: DecideDiscrepanciesInput) =>
        (await callEndpoint(decideDiscrepanciesEndpoint, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    close: useMutation({
      mutationFn: async () => (await callEndpoint(closeInvoiceEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
  };
}
