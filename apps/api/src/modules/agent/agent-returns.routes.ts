import { agentReturnEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import type { AppModule } from '../module.js';
import {
  agentReturnDetail,
  agentReturnLabel,
  agentReturns,
  cancelAgentReturn,
  createAgentReturn,
  returnableSims,
} from './agent-returns.service.js';

/**
 * The agent portal's Returns (DOMAIN.md 7): each endpoint reads and writes the signed-in agent's
 * own returns and SIMs only.
 */
export const agentReturnsModule: AppModule = {
  name: 'agent-returns',
  register(context) {
    const { endpoint, db } = context;
    endpoint(agentReturnEndpoints.list, ({ principal }) => agentReturns(db, principal.userId));
    endpoint(agentReturnEndpoints.returnable, ({ principal }) =>
      returnableSims(db, principal.userId),
    );
    endpoint(agentReturnEndpoints.detail, ({ principal, params }) =>
      agentReturnDetail(db, principal.userId, params.id),
    );
    endpoint(agentReturnEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createAgentReturn(tx, { actor: principal, meta }, body)),
    );
    endpoint(agentReturnEndpoints.cancel, ({ principal, params, meta }) =>
      db.transaction((tx) => cancelAgentReturn(tx, { actor: principal, meta }, params.id)),
    );
    registerPrintable(context, {
      endpoint: agentReturnEndpoints.label,
      ask: async ({ principal, params }) => {
        await agentReturnLabel(db, principal.userId, params.id);
        return { id: params.id, agent_id: principal.userId };
      },
      content: (request) => agentReturnLabel(db, Number(request.agent_id), Number(request.id)),
    });
  },
};
