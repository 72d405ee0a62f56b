import { webOrderEndpoints } from '@inventory/contract';
import type { AppModule } from '../module.js';
import {
  approveWebOrder,
  changeWebOrderShipMethod,
  checkout,
  expireWebOrders,
  rejectWebOrder,
  shopCatalogue,
  webOrderQueue,
  WEB_ORDER_SWEEP_MS,
} from './web-orders.service.js';

/**
 * Web orders (DOMAIN.md 4.1 /dashboard/web-order): the cart's shop and checkout (guard 'session';
 * the service lets only a retailer's portal user or a shopping agent buy), the approval queue,
 * approve, reject and the ship method. Each app server sweeps expired holds every minute from
 * when it listens until it closes; a test's app never listens, so its tests sweep by hand.
 */
export const webOrderModule: AppModule = {
  name: 'web-orders',
  register(context) {
    const { app, endpoint, db } = context;
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

    let timer: NodeJS.Timeout | null = null;
    let sweeping: Promise<unknown> | null = null;
    const sweep = () => {
      if (sweeping) return;
      sweeping = expireWebOrders(db)
        .catch((error: unknown) => app.log.error({ err: error }, 'web order sweep failed'))
        .finally(() => {
          sweeping = null;
        });
    };
    app.addHook('onListen', async () => {
      timer = setInterval(sweep, WEB_ORDER_SWEEP_MS);
      // The sweep never keeps a process alive on its own.
      timer.unref();
    });
    app.addHook('preClose', async () => {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping;
    });
  },
};
