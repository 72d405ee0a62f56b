import {
  createCarrierOrderEndpoint,
  getCarrierOrderEndpoint,
  IDEMPOTENCY_KEY_HEADER,
  listCarrierOrderChangesEndpoint,
  reportCarrierPaymentEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import type { AppModule } from '../module.js';
import {
  createCarrierOrder,
  getCarrierOrder,
  listCarrierOrderChanges,
  reportCarrierPayment,
} from './carrier-orders.js';

/** The client carriers' API (decision 0025): their systems send orders and read them back. */
export const carrierOrdersModule: AppModule = {
  name: 'carrier-orders',
  register({ endpoint, db }) {
    endpoint(createCarrierOrderEndpoint, async ({ clientCarrier, request, reply, body, meta }) => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER];
      const { order, replayed } = await createCarrierOrder(
        db,
        clientCarrier,
        typeof key === 'string' ? key : undefined,
        body,
        meta,
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return new Answer(
        order,
        replayed
          ? `Order ${order.number} was taken already with this key.`
          : `Order ${order.number} taken.`,
      );
    });
    endpoint(getCarrierOrderEndpoint, ({ clientCarrier, params }) =>
      getCarrierOrder(db, clientCarrier, params.external_ref),
    );
    endpoint(listCarrierOrderChangesEndpoint, ({ clientCarrier, query }) =>
      listCarrierOrderChanges(db, clientCarrier, query),
    );
    endpoint(reportCarrierPaymentEndpoint, ({ clientCarrier, params, body, meta }) =>
      reportCarrierPayment(db, clientCarrier, params.external_ref, body, meta),
    );
  },
};
