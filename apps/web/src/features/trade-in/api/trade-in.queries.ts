import {
  tradeInEndpoints,
  type CreateTradeInInput,
  type InspectTradeInInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The trade-ins board and each trade-in's steps. */

const BOARD_KEY = [tradeInEndpoints.board.path];

export function useTradeInBoard() {
  return useQuery({
    queryKey: BOARD_KEY,
    queryFn: async () => (await callEndpoint(tradeInEndpoints.board)).data,
  });
}

type Step = 'accept' | 'sendBack';

export function useTradeInActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: BOARD_KEY });
  return {
    create: useMutation({
      mutationFn: async (body: CreateTradeInInput) =>
        (await callEndpoint(tradeInEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    receive: useMutation({
      mutationFn: async ({ id, imei, station }: { id: number; imei: string; station: string }) =>
        (
          await callEndpoint(tradeInEndpoints.receive, {
            params: { id },
            body: { imei, ...(station && { station }) },
          })
        ).data,
      onSuccess: refresh,
    }),
    inspect: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: InspectTradeInInput }) =>
        (await callEndpoint(tradeInEndpoints.inspect, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    revalue: useMutation({
      mutationFn: async ({ id, offer }: { id: number; offer: number }) =>
        (
          await callEndpoint(tradeInEndpoints.revalue, {
            params: { id },
            body: { offer_cents: offer },
          })
        ).data,
      onSuccess: refresh,
    }),
    decline: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string | null }) =>
        (await callEndpoint(tradeInEndpoints.decline, { params: { id }, body: { reason } })).data,
      onSuccess: refresh,
    }),
    step: useMutation({
      mutationFn: async ({ id, step }: { id: number; step: Step }) =>
        (await callEndpoint(tradeInEndpoints[step], { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
    updateSettings: useMutation({
      mutationFn: async (days: number) =>
        (
          await callEndpoint(tradeInEndpoints.updateSettings, {
            body: { offer_valid_days: days },
          })
        ).data,
      onSuccess: refresh,
    }),
  };
}
