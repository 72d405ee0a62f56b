import type { Queryable } from '../../db/db.js';

/**
 * The devices the generated parcels carried (run after `generateTracking`): the registry's sold
 * devices (shipped or delivered) are bound to the unit of a one-device ground order that left the
 * dock, of the device's model, so returns, RMAs and claims have a device to name. Parcels that
 * came back, were lost or are on their way are served first (their stations need the device),
 * then delivered ones. Within a model, devices (oldest first) and orders (first shipped first) are
 * spread over each other in step, so a device is received long before its order ships; a pair
 * that would not be is left out. What is bound takes its order's state: shipped, or delivered
 * when its parcel was; the device's last event becomes that step. The registry has fewer sold
 * devices than such orders: the rest of the orders keep no unit, as before. Set-based,
 * deterministic; answers the units bound.
 */
export async function generateUnits(db: Queryable): Promise<{ units: number }> {
  let units = 0;
  for (const returnsFirst of [true, false]) units += await bindUnits(db, returnsFirst);
  return { units };
}

async function bindUnits(db: Queryable, returnsFirst: boolean): Promise<number> {
  const [row] = await db.query<{ units: number }>(
    `WITH candidates AS (
       SELECT o.id AS order_id, o.number, o.status, o.created_at, o.shipped_at, l.id AS line_id,
         l.variant_id, pr.model_id, p.id AS package_id, p.tracking_number, p.delivered_at
       FROM orders o
       JOIN order_lines l ON l.order_id = o.id AND l.qty = 1
       JOIN product_variants v ON v.id = l.variant_id
       JOIN products pr ON pr.id = v.product_id AND pr.kind = 'device'
       JOIN packages p ON p.order_id = o.id
       WHERE o.ship_method = 'ground'
         AND o.status IN ('shipped', 'delivered', 'returned', 'lost')
         AND (o.status <> 'delivered') = $1
         AND NOT EXISTS (SELECT 1 FROM order_line_units u WHERE u.order_line_id = l.id)),
     ranked_orders AS (
       SELECT c.*, row_number() OVER (PARTITION BY model_id ORDER BY shipped_at, order_id) - 1 AS j,
         count(*) OVER (PARTITION BY model_id) AS n
       FROM candidates c),
     ranked_devices AS (
       SELECT d.id, d.model_id, d.status, d.received_at,
         row_number() OVER (PARTITION BY d.model_id ORDER BY d.id) - 1 AS i,
         count(*) OVER (PARTITION BY d.model_id) AS n
       FROM devices d
       WHERE d.status IN ('shipped', 'delivered')
         AND NOT EXISTS (SELECT 1 FROM order_line_units u WHERE u.device_id = d.id)),
     sizes AS (
       SELECT o.model_id, o.n AS orders, d.n AS devices
       FROM (SELECT DISTINCT model_id, n FROM ranked_orders) o
       JOIN (SELECT DISTINCT model_id, n FROM ranked_devices) d ON d.model_id = o.model_id),
     -- The fewer side takes every row; the other one row in (larger / fewer), spread evenly.
     order_slots AS (
       SELECT o.*, CASE WHEN s.devices >= s.orders THEN o.j * s.devices / s.orders ELSE o.j END
         AS slot
       FROM ranked_orders o JOIN sizes s USING (model_id)),
     device_slots AS (
       SELECT d.*, CASE WHEN s.devices >= s.orders THEN d.i ELSE d.i * s.orders / s.devices END
         AS slot
       FROM ranked_devices d JOIN sizes s USING (model_id)),
     pairs AS (
       SELECT o.*, d.id AS device_id
       FROM order_slots o JOIN device_slots d USING (model_id, slot)
       WHERE d.received_at + interval '3 days' < o.created_at),
     bound AS (
       INSERT INTO order_line_units (order_line_id, variant_id, device_id, status, created_at,
         created_by, updated_at, picked_at, picked_by)
       SELECT line_id, variant_id, device_id, 'shipped', created_at + interval '10 minutes', $2,
         shipped_at, created_at + interval '1 hour', $2
       FROM pairs ORDER BY order_id
       RETURNING device_id),
     moved AS (
       UPDATE devices d
       SET status = CASE WHEN p.status = 'delivered' THEN 'delivered' ELSE 'shipped' END,
         updated_at = COALESCE(p.delivered_at, p.shipped_at)
       FROM pairs p WHERE d.id = p.device_id AND d.id IN (SELECT device_id FROM bound)
       RETURNING d.id),
     -- The device's move out of the registry is now its parcel's scan-out.
     shipped AS (
       UPDATE device_events e
       SET at = p.shipped_at, type = 'shipped', from_status = 'packed', to_status = 'shipped',
         ref_type = 'package', ref_id = p.package_id, station = 'dock',
         data = jsonb_build_object('tracking', p.tracking_number, 'order', p.number)
       FROM pairs p
       WHERE e.device_id = p.device_id AND e.type = 'status_changed' AND e.from_status = 'received'
         AND e.device_id IN (SELECT id FROM moved)
       RETURNING e.id),
     delivered AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, from_status,
         to_status, ref_type, ref_id, data)
       SELECT p.device_id, p.delivered_at, NULL, 'carrier', 'delivered', 'shipped', 'delivered',
         'package', p.package_id, jsonb_build_object('tracking', p.tracking_number)
       FROM pairs p WHERE p.status = 'delivered' AND p.delivered_at IS NOT NULL
         AND p.device_id IN (SELECT id FROM moved)
       RETURNING id)
     SELECT (SELECT count(*)::int FROM bound) AS units,
       (SELECT count(*) FROM shipped) + (SELECT count(*) FROM delivered) AS events`,
    [returnsFirst, await generatorUser(db)],
  );
  return row!.units;
}

/** Whom the generated stations' steps are stamped with: the first user, as the other generators. */
export async function generatorUser(db: Queryable): Promise<number | null> {
  const [admin] = await db.query<{ id: number | null }>('SELECT min(id)::int AS id FROM users');
  return admin?.id ?? null;
}
