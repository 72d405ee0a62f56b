import {
  agentRequestEndpoints,
  type AgentReceiveAnswer,
  type AgentSimRequestDetail,
  type CreateAgentSimRequestInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { patchQuery } from '../../../toolkit/station';

/** The agent's own SIM requests and shipments (DOMAIN.md 7), read and written as the agent. */

const OVERVIEW_KEY = [agentRequestEndpoints.overview.path];
const INCOMING_KEY = [agentRequestEndpoints.incoming.path];
const shipmentKey = (id: number) => [agentRequestEndpoints.shipment.path, id];

export function useAgentRequests() {
  return useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: async () => (await callEndpoint(agentRequestEndpoints.overview)).data,
  });
}

export function useAgentRequestActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: OVERVIEW_KEY });
  return {
    create: useMutation({
      mutationFn: async (body: CreateAgentSimRequestInput) =>
        (await callEndpoint(agentRequestEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(agentRequestEndpoints.cancel, { params: { id }, body: {} })).data,
      onSuccess: refresh,
    }),
  };
}

export function useIncomingShipments() {
  return useQuery({
    queryKey: INCOMING_KEY,
    queryFn: async () => (await callEndpoint(agentRequestEndpoints.incoming)).data,
  });
}

export function useAgentShipment(id: number | null) {
  return useQuery({
    queryKey: shipmentKey(id ?? 0),
    queryFn: async () =>
      (await callEndpoint(agentRequestEndpoints.shipment, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/**
 * The shipment as it stands after a receipt scan's answer: the SIMs received marked so, and the
 * count. Null (read again) when the count is not what this tab's read leads to.
 */
export function shipmentAfterScan(
  shipment: AgentSimRequestDetail,
  answer: AgentReceiveAnswer,
): AgentSimRequestDetail | null {
  if (answer.qty_scanned !== shipment.qty_scanned + answer.received.length) return null;
  if (answer.received.length === 0) return shipment;
  const received = new Set(answer.received);
  return {
    ...shipment,
    qty_scanned: answer.qty_scanned,
    sims: shipment.sims.map((sim) =>
      received.has(sim.iccid) ? { ...sim, status: 'with_agent' } : sim,
    ),
  };
}

/** Receipt scans and the finish, each answer put into the shipment shown. */
export function useReceiveShipment(id: number) {
  const client = useQueryClient();
  return {
    send: async (code: string) =>
      (await callEndpoint(agentRequestEndpoints.scan, { params: { id }, body: { code } })).data,
    apply: (answer: AgentReceiveAnswer) =>
      patchQuery<AgentSimRequestDetail>(client, shipmentKey(id), (shipment) =>
        shipmentAfterScan(shipment, answer),
      ),
    reread: () => client.invalidateQueries({ queryKey: shipmentKey(id), exact: true }),
    finish: useMutation({
      mutationFn: async () =>
        (await callEndpoint(agentRequestEndpoints.finish, { params: { id }, body: {} })).data,
      onSuccess: async (shipment) => {
        client.setQueryData(shipmentKey(id), shipment);
        await Promise.all([
          client.invalidateQueries({ queryKey: INCOMING_KEY }),
          client.invalidateQueries({ queryKey: OVERVIEW_KEY }),
        ]);
      },
    }),
  };
}
