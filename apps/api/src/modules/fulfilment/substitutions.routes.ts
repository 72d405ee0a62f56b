import { substitutionEndpoints, supportOrderEndpoints } from '@inventory/contract';
import { registerResource } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { substitutionRuleStore } from './substitution-rules.store.js';
import {
  applySubstitutions,
  approveSubstitutions,
  pendingProposals,
  proposeSubstitutions,
  recordClientNotified,
  rejectSubstitutions,
  substitutionBacklog,
  substitutionsToNotify,
} from './substitutions.service.js';
import {
  approveSupportOrder,
  createSupportOrder,
  rejectSupportOrder,
  supportItemOptions,
  supportOrders,
  supportSubscribers,
} from './support-orders.service.js';

/**
 * The fulfilment desk's exceptions (DOMAIN.md 4.14): substitutions for orders without stock, with
 * their rules, proposals, approvals and client notices (`/fulfill/substitute`), and the support
 * orders customer support creates (`/fulfill/support-order`).
 */
export const substitutionsModule: AppModule = {
  name: 'substitutions',
  register(context) {
    const { endpoint, db } = context;
    registerResource(context, substitutionRuleStore);
    endpoint(substitutionEndpoints.backlog, ({ query }) => substitutionBacklog(db, query));
    endpoint(substitutionEndpoints.propose, ({ principal, body, meta }) =>
      db.transaction((tx) => proposeSubstitutions(tx, { actor: principal, meta }, body)),
    );
    endpoint(substitutionEndpoints.apply, ({ principal, body, meta }) =>
      db.transaction((tx) => applySubstitutions(tx, { actor: principal, meta }, body)),
    );
    endpoint(substitutionEndpoints.proposals, () => pendingProposals(db));
    endpoint(substitutionEndpoints.approve, ({ principal, body, meta }) =>
      db.transaction((tx) =>
        approveSubstitutions(tx, { actor: principal, meta }, body.substitution_ids),
      ),
    );
    endpoint(substitutionEndpoints.reject, ({ principal, body, meta }) =>
      db.transaction((tx) =>
        rejectSubstitutions(tx, { actor: principal, meta }, body.substitution_ids, body.reason),
      ),
    );
    endpoint(substitutionEndpoints.toNotify, () => substitutionsToNotify(db));
    endpoint(substitutionEndpoints.notified, ({ principal, body, meta }) =>
      db.transaction((tx) =>
        recordClientNotified(tx, { actor: principal, meta }, body.substitution_ids),
      ),
    );

    endpoint(supportOrderEndpoints.subscribers, ({ query }) =>
      supportSubscribers(db, query.search, query.id),
    );
    endpoint(supportOrderEndpoints.itemOptions, ({ query }) =>
      supportItemOptions(db, query.search, query.id),
    );
    endpoint(supportOrderEndpoints.list, ({ query }) =>
      supportOrders(db, query.awaiting_approval ?? false),
    );
    endpoint(supportOrderEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createSupportOrder(tx, { actor: principal, meta }, body)),
    );
    endpoint(supportOrderEndpoints.approve, ({ principal, params, meta }) =>
      db.transaction((tx) => approveSupportOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(supportOrderEndpoints.reject, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        rejectSupportOrder(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
  },
};
