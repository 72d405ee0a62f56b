import { agentOrderEndpoint, agentOrderListEndpoints } from '@inventory/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import type { ListQueryParams } from './agent-portal.queries';

/** The agent's own orders (DOMAIN.md 7 History), read as the agent. */

const listQueryOf = (params: ListQueryParams) =>
  Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));

export function useAgentOrders(params: ListQueryParams) {
  const query = listQueryOf(params);
  return {
    page: useQuery({
      queryKey: [agentOrderListEndpoints.list.path, query],
      queryFn: async () => (await callEndpoint(agentOrderListEndpoints.list, { query })).data,
      placeholderData: keepPreviousData,
    }),
    count: useQuery({
      queryKey: [agentOrderListEndpoints.count.path, query],
      queryFn: async () => (await callEndpoint(agentOrderListEndpoints.count, { query })).data,
    }),
  };
}

/** One of the agent's orders with its steps (404 for another agent's). */
export function useAgentOrder(id: number | null) {
  return useQuery({
    queryKey: [agentOrderEndpoint.path, id],
    queryFn: async () => (await callEndpoint(agentOrderEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
    retry: false,
  });
}
