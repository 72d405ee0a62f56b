import {
  claimEndpoints,
  type CreateClaimInput,
  type UpdateCarrierTermsInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The claims board, a claim's record, a parcel's prefilled values and the claims' steps. */

const BOARD_KEY = [claimEndpoints.board.path];
const claimKey = (id: number) => [claimEndpoints.detail.path, id];

export function useClaimBoard() {
  return useQuery({
    queryKey: BOARD_KEY,
    queryFn: async () => (await callEndpoint(claimEndpoints.board)).data,
  });
}

export function useClaim(id: number | null) {
  return useQuery({
    queryKey: claimKey(id ?? 0),
    queryFn: async () => (await callEndpoint(claimEndpoints.detail, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** A parcel by its tracking number, asked when the user looks it up. */
export const lookUpParcel = async (trackingNumber: string) =>
  (await callEndpoint(claimEndpoints.parcel, { query: { tracking_number: trackingNumber } })).data;

type Step = 'review' | 'close';

export function useClaimActions() {
  const client = useQueryClient();
  const refresh = (id: number) =>
    Promise.all([
      client.invalidateQueries({ queryKey: BOARD_KEY }),
      client.invalidateQueries({ queryKey: claimKey(id) }),
    ]);
  const done = async (answer: { claim: { id: number } }) => refresh(answer.claim.id);
  return {
    create: useMutation({
      mutationFn: async (body: CreateClaimInput) =>
        (await callEndpoint(claimEndpoints.create, { body })).data,
      onSuccess: done,
    }),
    file: useMutation({
      mutationFn: async ({ id, number }: { id: number; number: string }) =>
        (
          await callEndpoint(claimEndpoints.file, {
            params: { id },
            body: { carrier_claim_number: number },
          })
        ).data,
      onSuccess: done,
    }),
    step: useMutation({
      mutationFn: async ({ id, step }: { id: number; step: Step }) =>
        (await callEndpoint(claimEndpoints[step], { params: { id }, body: {} })).data,
      onSuccess: done,
    }),
    pay: useMutation({
      mutationFn: async ({ id, paid }: { id: number; paid: number }) =>
        (await callEndpoint(claimEndpoints.pay, { params: { id }, body: { paid_cents: paid } }))
          .data,
      onSuccess: done,
    }),
    deny: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(claimEndpoints.deny, { params: { id }, body: { reason } })).data,
      onSuccess: done,
    }),
    updateTerms: useMutation({
      mutationFn: async ({
        carrier,
        body,
      }: {
        carrier: 'usps' | 'ups';
        body: UpdateCarrierTermsInput;
      }) => (await callEndpoint(claimEndpoints.updateTerms, { params: { carrier }, body })).data,
      onSuccess: () => client.invalidateQueries({ queryKey: BOARD_KEY }),
    }),
  };
}
