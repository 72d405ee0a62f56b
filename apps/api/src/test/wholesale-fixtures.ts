import type { OrderAssignmentResult } from '@inventory/contract';
import type { Db } from '../db/db.js';
import { one, seedBox, type Shop } from '../modules/fulfilment/fulfilment.test-support.js';
import { createOrder } from '../modules/order/index.js';
import { dataOf, type ApiClient } from './api-client.js';

/**
 * What the wholesale tests share: the fulfilment tests' shop (a phone sold alone and in a kit with
 * a charger, located stock, signed-in staff) and a retailer's order of it, assigned.
 */
export {
  seedBox,
  seedShop,
  signedIn,
  type Shop,
} from '../modules/fulfilment/fulfilment.test-support.js';

const META = { ip: '127.0.0.1', userAgent: 'wholesale test', requestId: 'wholesale-test' };

let retailers = 0;

/**
 * A wholesale order of `phones` grade-A phones (and `chargers` of the shop's charger through its
 * kit, one per kit) for a new retailer, ready; with `manager` it is assigned to `workerId`, a
 * device reserved per unit. Stock: a located box holding the phones (and two spare).
 */
export async function seedWholesaleOrder(
  db: Db,
  shop: Shop,
  options: { phones: number; kits?: number; manager?: ApiClient; workerId?: number },
): Promise<{ orderId: number; number: string; imeis: string[] }> {
  retailers += 1;
  const kits = options.kits ?? 0;
  const stock = await seedBox(db, shop, options.phones + kits + 2);
  const retailerId = await one(db, "INSERT INTO retailers (name, type) VALUES ($1, 'store')", [
    `Phone Shop ${retailers} ${Date.now()}`,
  ]);
  const [bundle] = await db.query<{ id: number }>(
    'SELECT bundle_id::int AS id FROM pts_listings WHERE id = $1',
    [shop.bundleListingId],
  );
  const order = await db.transaction((tx) =>
    createOrder(
      tx,
      {
        actor: {
          userId: null,
          userName: 'retailer portal',
          roles: [],
          roleKeys: [],
          permissions: [],
        },
        meta: META,
      },
      {
        source: 'retailer',
        fulfilmentType: 'wholesale',
        clientCarrierId: null,
        program: null,
        customer: { retailerId },
        shipTo: {
          name: 'Receiving dock',
          company: `Phone Shop ${retailers}`,
          line1: '1 Commerce St',
          line2: null,
          city: 'Dallas',
          state: 'TX',
          zip: '75201',
          phone: null,
        },
        shipMethod: 'freight',
        lines: [
          {
            sellable: { kind: 'variant', id: shop.variantId },
            listingId: shop.listingId,
            qty: options.phones,
            unitPriceCents: 9900,
          },
          ...(kits > 0
            ? [
                {
                  sellable: { kind: 'bundle' as const, id: bundle!.id },
                  listingId: shop.bundleListingId,
                  qty: kits,
                  unitPriceCents: 12900,
                },
              ]
            : []),
        ],
      },
    ),
  );
  if (kits > 0) {
    // Intake counts the kit's charger as device stock it cannot find (decision 0026): released.
    await db.query(
      `UPDATE orders SET status = 'ready', hold_reason = NULL, status_before_hold = NULL,
         hold_note = NULL WHERE id = $1 AND status = 'on_hold'`,
      [order.id],
    );
  }
  if (options.manager && options.workerId) {
    const result = await dataOf<OrderAssignmentResult>(
      options.manager.post('/fulfilment/assignments', {
        assignee_id: options.workerId,
        order_ids: [order.id],
      }),
    );
    if (result.assigned.length !== 1)
      throw new Error(`Not assigned: ${JSON.stringify({ order, result })}`);
  }
  return { orderId: order.id, number: order.number, imeis: stock.imeis };
}
