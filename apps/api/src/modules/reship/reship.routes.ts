import { cancelRequestEndpoints, reshipEndpoints } from '@inventory/contract';
import type { AppModule } from '../module.js';
import {
  approveCancelRequest,
  completeCancelRequest,
  createCancelRequest,
  denyCancelRequest,
  listCancelRequests,
} from './cancel-requests.service.js';
import { reshipOrders } from './reship-orders.js';
import { reshipStatistics } from './reship-statistics.js';
import {
  approveReship,
  createReship,
  denyReship,
  listReships,
  reshipCandidate,
} from './reships.service.js';

/**
 * Exceptions on orders (DOMAIN.md 4.16): cancellation requests carried out by stage, reship
 * requests with their child orders, and the reship statistics.
 */
export const reshipModule: AppModule = {
  name: 'reship',
  register({ endpoint, db, replica, config }) {
    endpoint(cancelRequestEndpoints.list, ({ query }) => listCancelRequests(db, query.view));
    endpoint(cancelRequestEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) =>
        createCancelRequest(tx, { principal, meta, carrier: config.carrier }, body),
      ),
    );
    endpoint(cancelRequestEndpoints.approve, ({ principal, meta, params }) =>
      db.transaction((tx) =>
        approveCancelRequest(tx, { principal, meta, carrier: config.carrier }, params.id),
      ),
    );
    endpoint(cancelRequestEndpoints.deny, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        denyCancelRequest(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
    endpoint(cancelRequestEndpoints.complete, ({ principal, meta, params }) =>
      db.transaction((tx) => completeCancelRequest(tx, { actor: principal, meta }, params.id)),
    );

    endpoint(reshipEndpoints.list, ({ query }) => listReships(db, query.view));
    endpoint(reshipEndpoints.candidate, ({ query }) => reshipCandidate(db, query.order_number));
    endpoint(reshipEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createReship(tx, { actor: principal, meta }, body)),
    );
    endpoint(reshipEndpoints.approve, ({ principal, meta, params }) =>
      db.transaction((tx) => approveReship(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(reshipEndpoints.deny, ({ principal, meta, params, body }) =>
      db.transaction((tx) => denyReship(tx, { actor: principal, meta }, params.id, body.reason)),
    );
    endpoint(reshipEndpoints.orders, () => reshipOrders(db));
    endpoint(reshipEndpoints.statistics, ({ query }) => reshipStatistics(replica, query));
  },
};
