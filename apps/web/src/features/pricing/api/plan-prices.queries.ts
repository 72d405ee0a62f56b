import {
  lifelineMinimumEndpoints,
  planPriceEndpoints,
  type CreatePlanPriceInput,
  type ExpirePlanPriceInput,
  type SchedulePlanPriceChangeInput,
  type SetLifelineMinimumInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Everything the page reads sits under the list's path: one invalidation refreshes it all. */
const ROOT = planPriceEndpoints.list.path;

function useRefreshPrices() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [ROOT] });
}

/** The writes of the pricing page, each refreshing the list, the histories and the standard. */
export function usePlanPriceWrites() {
  const refresh = useRefreshPrices();
  const after = { onSuccess: () => void refresh() };
  return {
    create: useMutation({
      mutationFn: async (body: CreatePlanPriceInput) =>
        (await callEndpoint(planPriceEndpoints.create, { body })).data,
      ...after,
    }),
    scheduleChange: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: SchedulePlanPriceChangeInput }) =>
        (await callEndpoint(planPriceEndpoints.scheduleChange, { params: { id }, body })).data,
      ...after,
    }),
    expire: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: ExpirePlanPriceInput }) =>
        (await callEndpoint(planPriceEndpoints.expire, { params: { id }, body })).data,
      ...after,
    }),
    withdraw: useMutation({
      mutationFn: async (id: number) =>
        callEndpoint(planPriceEndpoints.withdraw, { params: { id } }),
      ...after,
    }),
    setMinimum: useMutation({
      mutationFn: async (body: SetLifelineMinimumInput) =>
        (await callEndpoint(lifelineMinimumEndpoints.set, { body })).data,
      ...after,
    }),
  };
}

/** Every version of a price's key, oldest first. */
export const usePlanPriceVersions = (id: number | null) =>
  useQuery({
    queryKey: [ROOT, 'versions', id],
    queryFn: async () =>
      (await callEndpoint(planPriceEndpoints.versions, { params: { id: id! } })).data,
    enabled: id !== null,
  });

/** The Lifeline minimum service standard: today's value and every value. */
export const useLifelineMinimums = () =>
  useQuery({
    queryKey: [ROOT, 'lifeline-minimum'],
    queryFn: async () => (await callEndpoint(lifelineMinimumEndpoints.list, {})).data,
  });
