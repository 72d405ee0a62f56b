import type { Queryable } from '../../db/db.js';

/**
 * Packages for the generated orders that have a parcel on its way or behind them (labelled,
 * shipped, delivered, returned, lost, by ground): one each, with a USPS IMpb tracking number made
 * from the order id (its mod-10 check digit computed in SQL), so the packages list and the dock
 * are tried at the size of the orders. Set-based and deterministic; run after `generateOrders`.
 */
export async function generatePackages(db: Queryable): Promise<{ packages: number }> {
  const [row] = await db.query<{ packages: number }>(
    `WITH parcels AS (
       SELECT o.id, o.created_at, o.shipped_at,
         '94001' || (SELECT usps_mailer_id FROM shipping_settings)
           || lpad((o.id * 100 % 10000000000)::text, 10, '0') AS payload,
         CASE o.status WHEN 'labeled' THEN 'label_created' WHEN 'shipped' THEN 'scanned_out'
           ELSE o.status END AS status
       FROM orders o
       WHERE o.ship_method = 'ground'
         AND o.status IN ('labeled', 'shipped', 'delivered', 'returned', 'lost')
         AND NOT EXISTS (SELECT 1 FROM packages p WHERE p.order_id = o.id)
     ), made AS (
       INSERT INTO packages (order_id, carrier, service, tracking_number, weight_g, label_format,
         status, label_created_at, first_printed_at, scanned_out_at, updated_at)
       SELECT p.id, 'usps', 'usps_ground_advantage', p.payload || c.digit, 350 + p.id % 100, 'pdf',
         p.status, p.created_at + interval '3 hours', p.created_at + interval '3 hours',
         p.shipped_at, COALESCE(p.shipped_at, p.created_at + interval '3 hours')
       FROM parcels p
       CROSS JOIN LATERAL (
         SELECT ((10 - sum(substr(p.payload, i, 1)::int * CASE WHEN (21 - i) % 2 = 0 THEN 3 ELSE 1 END)
           % 10) % 10)::text AS digit
         FROM generate_series(1, 21) AS i
       ) c
       ORDER BY p.id
       RETURNING 1
     )
     SELECT count(*)::int AS packages FROM made`,
  );
  return { packages: row!.packages };
}
