import { webOrderEndpoints } from '@inventory/contract';
import * as z from 'zod/mini';
import { defineJob, registerJobs } from '../../toolkit/jobs.js';
import type { AppModule } from '../module.js';
import {
  approveWebOrder,
  changeWebOrderShipMethod,
  checkout,
  expireWebOrders,
  rejectWebOrder,
  shopCatalogue,
  webOrderQueue,
} from './web-orders.service.js';

/**
 * The sweep of expired holds, a background job sent every minute once across all app servers
 * (it was a timer in each); a sweep takes at most a batch, the next takes the rest.
 */
export const webOrderExpiryJob = defineJob({
  name: 'web-order.expire-holds',
  schema: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  // A sweep that runs past the next one's minute has stalled: let the next one sweep.
  expireInSeconds: 60,
  every: '* * * * *',
  handler: (_data, { db }) => expireWebOrders(db),
});

/**
 * Web orders (DOMAIN.md 4.1 /dashboard/web-order): the cart's shop and checkout (guard 'session';
 * the service lets only a retailer's portal user or a shopping agent buy), the approval queue,
 * approve, reject and the ship method. Expired holds are swept by `webOrderExpiryJob` every
 * minute while the servers listen; a test's app never listens, so its tests sweep by hand.
 */
export const webOrderModule: AppModule = {
  name: 'web-orders',
  register(context) {
    const { endpoint, db } = context;
    endpoint(webOrderEndpoints.catalogue, ({ principal }) => shopCatalogue(db, principal));
    endpoint(webOrderEndpoints.checkout, ({ principal, body, meta }) =>
      db.transaction((tx) => checkout(tx, { actor: principal, meta }, body)),
    );
    endpoint(webOrderEndpoints.queue, () => webOrderQueue(db));
    endpoint(webOrderEndpoints.approve, ({ principal, params, meta }) =>
      db.transaction((tx) => approveWebOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(webOrderEndpoints.reject, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        rejectWebOrder(tx, { actor: principal, meta }, params.id, body.reason),
      ),
    );
    endpoint(webOrderEndpoints.shipMethod, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        changeWebOrderShipMethod(tx, { actor: principal, meta }, params.id, body.ship_method),
      ),
    );

    registerJobs(context, [webOrderExpiryJob]);
  },
};
