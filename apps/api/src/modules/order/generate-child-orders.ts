import type { Queryable } from '../../db/db.js';
import { countListingQuantities } from './generate-orders.js';

export type GenerateChildOrdersOptions = {
  /** A reship's child order, or an RMA's replacement. */
  readonly source: 'reship' | 'replacement';
  /**
   * SQL, without parameters, answering the orders to make: `parent_order_id`, `at` (when the
   * child was made), `ship_to` (jsonb of a corrected address, or NULL for the parent's) and
   * `notes`. One row per parent: the caller finds its child by parent and source.
   */
  readonly wanted: string;
  readonly anchor: Date;
  readonly actor: number | null;
};

/**
 * Child orders as the reship approval and the RMA resolution make them through the order intake
 * (run after `generateOrders`): the parent's customer, ship method and lines (or the corrected
 * address), at no charge; a reship's urgent and on the parent's listing, a replacement of type
 * `replacement` outside any listing. Those made more than ten days before `anchor` are delivered;
 * newer ones spread over fulfilment, labelled and shipped. Written through the orders' triggers
 * (numbers, business days, the daily report's counts); their parcels come from
 * `generatePackages`. Set-based, deterministic; answers the orders made.
 */
export async function generateChildOrders(
  db: Queryable,
  { source, wanted, anchor, actor }: GenerateChildOrdersOptions,
): Promise<number> {
  const [row] = await db.query<{ orders: number }>(
    `WITH wanted AS (${wanted}),
     staged AS (
       SELECT w.parent_order_id, w.at, w.notes, o.fulfilment_type, o.client_carrier_id, o.program,
         o.subscriber_id, o.retailer_id, o.ship_method,
         extract(epoch FROM $1::timestamptz - w.at) / 86400 AS age,
         (w.parent_order_id * 2654435761 + 7919) % 100 AS r
       FROM wanted w JOIN orders o ON o.id = w.parent_order_id),
     stated AS (
       SELECT staged.*,
         CASE WHEN age > 10 THEN 'delivered' WHEN r < 15 THEN 'ready' WHEN r < 30 THEN 'assigned'
           WHEN r < 40 THEN 'in_progress' WHEN r < 50 THEN 'fulfilled'
           WHEN r < 60 OR at + interval '6 hours' > $1::timestamptz THEN 'labeled'
           WHEN r < 85 OR age <= 3 THEN 'shipped' ELSE 'delivered' END AS status
       FROM staged),
     made AS (
       INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
         retailer_id, ship_method, priority, sla_due_at, status, parent_order_id, subtotal_cents,
         shipping_cents, total_cents, notes, created_at, created_by, updated_at, approved_at,
         shipped_at, payment_status)
       SELECT $2, CASE WHEN $2 = 'replacement' THEN 'replacement' ELSE fulfilment_type END,
         client_carrier_id, program, subscriber_id, retailer_id, ship_method,
         CASE WHEN $2 = 'reship' THEN 'high' ELSE 'normal' END, at + interval '2 days', status,
         parent_order_id, 0, 0, 0, notes, at, $3, at, at + interval '10 minutes',
         CASE WHEN status IN ('shipped', 'delivered') THEN at + interval '6 hours' END,
         -- A prepaid reship costs the customer nothing: nothing is left to capture.
         CASE WHEN $2 = 'reship' AND fulfilment_type = 'prepaid' THEN 'captured' END
       FROM stated ORDER BY at, parent_order_id
       RETURNING id, parent_order_id, status, created_at),
     ship_to AS (
       INSERT INTO order_ship_to (order_id, name, company, line1, line2, city, state, zip, phone)
       SELECT m.id, COALESCE(w.ship_to ->> 'name', t.name),
         CASE WHEN w.ship_to IS NULL THEN t.company ELSE w.ship_to ->> 'company' END,
         COALESCE(w.ship_to ->> 'line1', t.line1),
         CASE WHEN w.ship_to IS NULL THEN t.line2 ELSE w.ship_to ->> 'line2' END,
         COALESCE(w.ship_to ->> 'city', t.city), COALESCE(w.ship_to ->> 'state', t.state),
         COALESCE(w.ship_to ->> 'zip', t.zip),
         CASE WHEN w.ship_to IS NULL THEN t.phone ELSE w.ship_to ->> 'phone' END
       FROM made m JOIN wanted w USING (parent_order_id)
       JOIN order_ship_to t ON t.order_id = m.parent_order_id
       RETURNING order_id),
     lines AS (
       INSERT INTO order_lines (order_id, position, variant_id, bundle_id, combo_id, sku,
         description, listing_id, qty, qty_reserved, unit_price_cents, status, created_at)
       SELECT m.id, l.position, l.variant_id, l.bundle_id, l.combo_id, l.sku, l.description,
         CASE WHEN $2 = 'reship' THEN l.listing_id END, l.qty,
         CASE WHEN m.status IN ('ready', 'assigned', 'in_progress', 'fulfilled', 'labeled')
           THEN l.qty ELSE 0 END,
         0,
         CASE WHEN m.status IN ('shipped', 'delivered') THEN 'shipped'
           WHEN m.status IN ('in_progress', 'fulfilled') THEN 'picked'
           WHEN m.status = 'labeled' THEN 'packed' WHEN m.status = 'assigned' THEN 'allocated'
           ELSE 'open' END,
         m.created_at
       FROM made m JOIN order_lines l ON l.order_id = m.parent_order_id
       RETURNING order_id),
     received AS (
       INSERT INTO order_events (order_id, at, actor_id, actor_name, type, to_status, data)
       SELECT id, created_at, $3, 'generator', 'received', 'pending',
         jsonb_build_object('source', 'generated', 'parent_order_id', parent_order_id)
       FROM made
       RETURNING order_id)
     SELECT (SELECT count(*)::int FROM made) AS orders,
       (SELECT count(*) FROM ship_to) + (SELECT count(*) FROM lines)
         + (SELECT count(*) FROM received) AS written`,
    [anchor.toISOString(), source, actor],
  );
  if (source === 'reship') await countListingQuantities(db);
  return row!.orders;
}
