import { dailyOrderEndpoints, orderEndpoints } from '@inventory/contract';
import { pickerOptions, type PickerSql } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { dailyOrderReport } from './daily-orders.js';
import { orderListStore } from './order-list.store.js';
import {
  cancelOrder,
  createSupportOrder,
  editShipTo,
  holdOrder,
  orderCustomer,
  orderDetail,
  releaseOrder,
} from './orders.service.js';
import { changePayment } from './payment.js';

export const ORDER_PICKERS = {
  carriers: {
    from: 'vendors',
    id: 'id',
    label: 'name',
    where: "type = 'carrier-client' AND active AND ($1::text IS NULL OR name ILIKE $1)",
    order: 'lower(name), id',
  },
  // Live listings with their SKU, channel and price ("MOTO-G-A · carrier · $0.00").
  listings: {
    from: `pts_listings l`,
    id: 'l.id',
    label: `COALESCE((SELECT v.sku FROM product_variants v WHERE v.id = l.variant_id),
        (SELECT b.sku FROM bundles b WHERE b.id = l.bundle_id),
        (SELECT c.sku FROM combos c WHERE c.id = l.combo_id))
      || ' · ' || l.channel || ' · $' || to_char(l.price_cents / 100.0, 'FM999999990.00')`,
    where: `l.status = 'live' AND ($1::text IS NULL OR COALESCE(
        (SELECT v.sku FROM product_variants v WHERE v.id = l.variant_id),
        (SELECT b.sku FROM bundles b WHERE b.id = l.bundle_id),
        (SELECT c.sku FROM combos c WHERE c.id = l.combo_id)) ILIKE $1)`,
    order: 'l.id',
  },
} as const satisfies Record<string, PickerSql>;

/**
 * Orders (DOMAIN.md 4.7): the list, an order's record, its customer in full (audited), the
 * ship-to's edit, hold, release and cancel, a prepaid order's payment, support orders, and the
 * daily order report.
 */
export const orderModule: AppModule = {
  name: 'order',
  register(context) {
    const { endpoint, db, replica } = context;
    registerList(context, orderListStore);
    endpoint(orderEndpoints.detail, ({ params }) => orderDetail(db, params.id));
    endpoint(orderEndpoints.customer, ({ principal, params, meta }) =>
      db.transaction((tx) => orderCustomer(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(orderEndpoints.editAddress, ({ principal, params, body, meta }) =>
      db.transaction((tx) => editShipTo(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(orderEndpoints.hold, ({ principal, params, body, meta }) =>
      db.transaction((tx) =>
        holdOrder(tx, { actor: principal, meta }, params.id, body.reason, body.note),
      ),
    );
    endpoint(orderEndpoints.release, ({ principal, params, meta }) =>
      db.transaction((tx) => releaseOrder(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(orderEndpoints.changePayment, ({ principal, params, body, meta }) =>
      db.transaction(async (tx) => {
        await changePayment(tx, { actor: principal, meta }, params.id, body.status, {
          by: 'staff',
          note: body.note,
        });
        return orderDetail(tx, params.id);
      }),
    );
    endpoint(orderEndpoints.cancel, ({ principal, params, body, meta }) =>
      db.transaction((tx) => cancelOrder(tx, { actor: principal, meta }, params.id, body.reason)),
    );
    endpoint(orderEndpoints.createSupport, ({ principal, body, meta }) =>
      db.transaction((tx) => createSupportOrder(tx, { actor: principal, meta }, body)),
    );
    endpoint(orderEndpoints.carrierOptions, ({ query }) =>
      pickerOptions(db, ORDER_PICKERS.carriers, query),
    );
    endpoint(orderEndpoints.listingOptions, ({ query }) =>
      pickerOptions(db, ORDER_PICKERS.listings, query),
    );
    endpoint(dailyOrderEndpoints.report, ({ query }) => dailyOrderReport(replica, query));
  },
};
