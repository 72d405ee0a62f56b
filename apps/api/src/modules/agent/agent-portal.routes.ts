import {
  agentHomeEndpoint,
  agentProfileEndpoint,
  agentSimByIccidEndpoint,
  recordAgentActivationEndpoint,
  requestAgentAddressChangeEndpoint,
  updateAgentProfileEndpoint,
} from '@inventory/contract';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  agentHome,
  agentLedgerStore,
  agentProfile,
  agentSimByIccid,
  agentSimStore,
  recordActivation,
  requestAddressChange,
  updateAgentProfile,
} from './agent-portal.service.js';

/**
 * The agent portal's home, my SIMs, record an activation, history and profile (DOMAIN.md 7),
 * each scoped to the signed-in agent.
 */
export const agentPortalModule: AppModule = {
  name: 'agent-portal',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, agentSimStore);
    registerList(context, agentLedgerStore);
    endpoint(agentHomeEndpoint, ({ principal }) => agentHome(db, principal.userId));
    endpoint(agentSimByIccidEndpoint, ({ principal, params }) =>
      agentSimByIccid(db, principal.userId, params.iccid),
    );
    endpoint(recordAgentActivationEndpoint, ({ principal, meta, body }) =>
      recordActivation(db, principal, meta, body),
    );
    endpoint(agentProfileEndpoint, ({ principal }) => agentProfile(db, principal.userId));
    endpoint(updateAgentProfileEndpoint, ({ principal, meta, body }) =>
      updateAgentProfile(db, principal, meta, body),
    );
    endpoint(requestAgentAddressChangeEndpoint, ({ principal, meta, body }) =>
      requestAddressChange(db, principal, meta, body),
    );
  },
};
