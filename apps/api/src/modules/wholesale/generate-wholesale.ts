import type { Queryable } from '../../db/db.js';

/**
 * Shipments and cartons of the generated wholesale orders that are labelled or on their way and
 * behind them: one freight shipment each (a BOL number made from the order id; checked; picked up
 * unless the order is only labelled), with a closed carton per ten units or part of ten, scanned
 * out with the pickup. The generated orders bind no devices, so the cartons hold none. Set-based,
 * one statement; run after `generateOrders`.
 */
export async function generateWholesale(db: Queryable): Promise<{ shipments: number }> {
  const [row] = await db.query<{ shipments: number }>(
    `WITH shipped AS (
       SELECT o.id, o.status, o.created_at, o.shipped_at,
         (SELECT COALESCE(sum(l.qty), 1)::int FROM order_lines l WHERE l.order_id = o.id) AS qty
       FROM orders o
       WHERE o.fulfilment_type = 'wholesale'
         AND o.status IN ('labeled', 'shipped', 'delivered', 'returned', 'lost')
         AND NOT EXISTS (SELECT 1 FROM wholesale_shipments s WHERE s.order_id = o.id)
     ), made AS (
       INSERT INTO wholesale_shipments (order_id, mode, carrier, bol_number, ship_date, status,
         checked_at, pickup_carrier, driver_name, picked_up_at, created_at, updated_at)
       SELECT s.id, 'freight', 'Estes Express', 'BOL' || lpad(s.id::text, 9, '0'),
         (COALESCE(s.shipped_at, s.created_at + interval '1 day') AT TIME ZONE 'UTC')::date,
         CASE s.status WHEN 'labeled' THEN 'open' WHEN 'delivered' THEN 'delivered'
           ELSE 'in_transit' END,
         s.created_at + interval '5 hours',
         CASE WHEN s.status <> 'labeled' THEN 'Estes Express' END,
         CASE WHEN s.status <> 'labeled' THEN 'Driver ' || s.id % 40 END,
         CASE WHEN s.status <> 'labeled'
           THEN COALESCE(s.shipped_at, s.created_at + interval '1 day') END,
         s.created_at + interval '4 hours',
         COALESCE(s.shipped_at, s.created_at + interval '4 hours')
       FROM shipped s ORDER BY s.id
       RETURNING id, order_id, status, picked_up_at, created_at
     ), cartons AS (
       INSERT INTO order_boxes (order_id, seq, status, weight_g, shipment_id, opened_at, closed_at,
         dock_scanned_at, scanned_out_at, updated_at)
       SELECT m.order_id, n, CASE WHEN m.status = 'open' THEN 'closed' ELSE 'scanned_out' END,
         4000 + (m.order_id % 7) * 500, m.id, m.created_at - interval '3 hours',
         m.created_at - interval '1 hour', m.picked_up_at - interval '1 hour', m.picked_up_at,
         COALESCE(m.picked_up_at, m.created_at)
       FROM made m JOIN shipped s ON s.id = m.order_id
       CROSS JOIN generate_series(1, 1 + s.qty / 10) AS n
       ORDER BY m.order_id, n
     )
     SELECT count(*)::int AS shipments FROM made`,
  );
  return { shipments: row!.shipments };
}
