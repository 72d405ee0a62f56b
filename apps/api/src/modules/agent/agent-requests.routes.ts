import { agentRequestEndpoints } from '@inventory/contract';
import type { AppModule } from '../module.js';
import {
  agentReceiveScan,
  agentRequestOverview,
  agentShipment,
  cancelAgentRequest,
  createAgentRequest,
  finishReceipt,
  incomingShipments,
} from './agent-requests.service.js';

/**
 * The agent portal's SIM requests and receipts (DOMAIN.md 7): each endpoint acts on the signed-in
 * agent's own requests only.
 */
export const agentRequestsModule: AppModule = {
  name: 'agent-requests',
  register(context) {
    const { endpoint, db } = context;
    endpoint(agentRequestEndpoints.overview, ({ principal }) =>
      agentRequestOverview(db, principal.userId),
    );
    endpoint(agentRequestEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createAgentRequest(tx, { actor: principal, meta }, body)),
    );
    endpoint(agentRequestEndpoints.cancel, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        cancelAgentRequest(tx, { actor: principal, meta }, params.id, body.reason ?? null),
      ),
    );
    endpoint(agentRequestEndpoints.incoming, ({ principal }) =>
      incomingShipments(db, principal.userId),
    );
    endpoint(agentRequestEndpoints.shipment, ({ principal, params }) =>
      agentShipment(db, principal.userId, params.id),
    );
    endpoint(agentRequestEndpoints.scan, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        agentReceiveScan(tx, { actor: principal, meta }, params.id, body.code),
      ),
    );
    endpoint(agentRequestEndpoints.finish, ({ principal, params, meta }) =>
      db.transaction((tx) => finishReceipt(tx, { actor: principal, meta }, params.id)),
    );
  },
};
