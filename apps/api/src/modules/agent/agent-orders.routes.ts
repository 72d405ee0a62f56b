import { agentOrderEndpoint } from '@inventory/contract';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { agentOrderDetail, agentOrderStore } from './agent-orders.service.js';

/** The agent portal's order history (DOMAIN.md 7 History): the signed-in agent's own orders. */
export const agentOrdersModule: AppModule = {
  name: 'agent-orders',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, agentOrderStore);
    endpoint(agentOrderEndpoint, ({ principal, params }) =>
      agentOrderDetail(db, principal, params.id),
    );
  },
};
