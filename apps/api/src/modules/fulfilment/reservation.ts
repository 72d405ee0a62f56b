import type { Transaction } from '../../db/db.js';

/**
 * The reservation at assignment (DOMAIN.md 4.14: reserve devices at assignment, oldest box first),
 * one statement per pass for a whole batch of orders, whatever its size.
 *
 * Each order's missing units are ranked per match rule (most urgent order first); each rule takes
 * that many candidate devices (in stock, not held, in a located or partly picked box, in no open
 * unit), oldest box first, locked with SKIP LOCKED so that racing batches take different devices
 * and never wait on each other; the n-th unit of a rule gets the rule's n-th device. The partial
 * unique index on open units' devices is the last word: a device two overlapping rules both
 * offered goes to one unit (ON CONFLICT DO NOTHING), and under READ COMMITTED a device another
 * batch reserved and committed while this one ran fails the re-check of its row and is skipped.
 *
 * A line may name the device it should ship (`order_lines.requested_device_id`: a reship of the
 * unit that came back). Each pass first reserves the named devices that are available (the same
 * rules, one statement, the most urgent order first when two lines name one device); a line whose
 * device is not (still on its way back, in inspection, held, taken) takes any matching device in
 * the pass like any other line: the customer does not wait for a parcel in transit.
 */

/** The SQL of "this device (alias d) matches a variant (v, its product p)". */
const MATCHES = `p.model_id = d.model_id
  AND (v.grade IS NULL OR v.grade = d.grade)
  AND (v.color_id IS NULL OR v.color_id = d.color_id)
  AND (v.capacity_gb IS NULL OR v.capacity_gb = d.capacity_gb)
  AND (v.carrier_lock IS NULL OR v.carrier_lock = d.carrier_lock)`;

/** Most urgent order first: its priority, then its due time, then the oldest. */
const URGENCY = `CASE o.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END,
      COALESCE(o.sla_due_at, 'infinity'::timestamptz), o.id`;

/** The units of a rule (alias r) that hold a device or will: its reserved and picked ones. */
const RULE_UNITS = `(SELECT count(*) FROM order_line_units u
  WHERE u.order_line_id = r.line_id AND u.variant_id = ANY (r.variant_ids)
    AND u.status IN ('allocated', 'picked', 'packed'))`;

/**
 * The named devices of the orders' lines, each reserved for a unit of a rule of its line that it
 * matches and that misses a unit, if it is available as RESERVE_SQL's candidates are (and locked
 * as they are). The orders with no line naming a device cost one index probe.
 */
const RESERVE_REQUESTED_SQL = `
WITH named AS (
  SELECT r.order_id, r.line_id, r.variant_ids, l.requested_device_id AS device_id,
    l.substituted_from_variant_id
  FROM order_unit_rules(ARRAY(SELECT l.order_id FROM order_lines l
                              WHERE l.order_id = ANY ($1::bigint[])
                                AND l.requested_device_id IS NOT NULL)) r
  JOIN order_lines l ON l.id = r.line_id
  WHERE l.requested_device_id IS NOT NULL AND r.units > ${RULE_UNITS}
),
available AS (
  SELECT n.order_id, n.line_id, n.device_id, n.substituted_from_variant_id,
    (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id
     WHERE v.id = ANY (n.variant_ids) AND ${MATCHES} ORDER BY v.id LIMIT 1) AS variant_id
  FROM named n
  JOIN devices d ON d.id = n.device_id
  JOIN inventory_boxes b ON b.id = d.inventory_box_id
  WHERE d.status = 'in_stock' AND d.hold_reason IS NULL
    AND b.status IN ('located', 'partially_picked')
    AND EXISTS (SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id
                WHERE v.id = ANY (n.variant_ids) AND ${MATCHES})
    AND NOT EXISTS (SELECT 1 FROM order_line_units u
                    WHERE u.device_id = d.id AND u.status IN ('allocated', 'picked', 'packed'))
  FOR UPDATE OF d SKIP LOCKED
),
chosen AS (
  SELECT DISTINCT ON (a.device_id) a.line_id, a.variant_id, a.device_id,
    a.substituted_from_variant_id
  FROM available a JOIN orders o ON o.id = a.order_id
  ORDER BY a.device_id, ${URGENCY}, a.line_id
)
INSERT INTO order_line_units (order_line_id, variant_id, device_id, status, created_by,
  substituted_from_variant_id)
SELECT line_id, variant_id, device_id, 'allocated', $2, substituted_from_variant_id FROM chosen
ON CONFLICT DO NOTHING`;

const RESERVE_SQL = `
WITH rules AS (
  SELECT r.order_id, r.line_id, r.variant_ids,
    r.units - ${RULE_UNITS}::int AS missing,
    (SELECT string_agg(v.sku, ' or ' ORDER BY v.sku) FROM product_variants v
     WHERE v.id = ANY (r.variant_ids)) AS skus
  FROM order_unit_rules($1::bigint[]) r
),
demand AS (
  SELECT r.order_id, r.line_id, r.variant_ids,
    row_number() OVER (PARTITION BY r.variant_ids ORDER BY ${URGENCY}, r.line_id, g) AS rank
  FROM rules r
  JOIN orders o ON o.id = r.order_id
  CROSS JOIN generate_series(1, r.missing) AS g
  WHERE r.missing > 0
),
wanted AS (
  SELECT variant_ids, count(*)::int AS need,
    ARRAY(SELECT DISTINCT p.model_id FROM product_variants v JOIN products p ON p.id = v.product_id
          WHERE v.id = ANY (variant_ids) AND p.model_id IS NOT NULL) AS model_ids
  FROM demand GROUP BY variant_ids
),
supply AS (
  SELECT w.variant_ids, c.id AS device_id, c.variant_id,
    row_number() OVER (PARTITION BY w.variant_ids ORDER BY c.sealed_at, c.box_id, c.id) AS rank
  FROM wanted w
  CROSS JOIN LATERAL (
    SELECT d.id, b.sealed_at, b.id AS box_id,
      (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.id = ANY (w.variant_ids) AND ${MATCHES} ORDER BY v.id LIMIT 1) AS variant_id
    FROM devices d
    JOIN inventory_boxes b ON b.id = d.inventory_box_id
    WHERE d.status = 'in_stock' AND d.hold_reason IS NULL AND d.model_id = ANY (w.model_ids)
      AND b.status IN ('located', 'partially_picked')
      AND EXISTS (SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id
                  WHERE v.id = ANY (w.variant_ids) AND ${MATCHES})
      AND NOT EXISTS (SELECT 1 FROM order_line_units u
                      WHERE u.device_id = d.id AND u.status IN ('allocated', 'picked', 'packed'))
    ORDER BY b.sealed_at, b.id, d.id
    LIMIT w.need
    FOR UPDATE OF d SKIP LOCKED
  ) c
),
found AS (
  SELECT variant_ids, count(*)::int AS devices FROM supply GROUP BY variant_ids
),
placed AS (
  INSERT INTO order_line_units (order_line_id, variant_id, device_id, status, created_by,
    substituted_from_variant_id)
  SELECT dm.line_id, s.variant_id, s.device_id, 'allocated', $2,
    -- A substituted line's units say what was ordered (DOMAIN.md 2.2 OrderLineUnit).
    (SELECT l.substituted_from_variant_id FROM order_lines l WHERE l.id = dm.line_id)
  FROM demand dm JOIN supply s ON s.variant_ids = dm.variant_ids AND s.rank = dm.rank
  ON CONFLICT DO NOTHING
  RETURNING order_line_id
)
SELECT r.order_id::int AS order_id, sum(r.missing)::int AS missing,
  (SELECT count(*)::int FROM placed p JOIN order_lines l ON l.id = p.order_line_id
   WHERE l.order_id = r.order_id) AS placed,
  -- More units of a rule than the devices found for the whole batch: no retry can fill it.
  bool_or(r.missing > COALESCE(f.devices, 0)) AS hopeless,
  string_agg(DISTINCT r.skus, ', ') FILTER (WHERE r.missing > 0) AS skus
FROM rules r
LEFT JOIN found f ON f.variant_ids = r.variant_ids
GROUP BY r.order_id`;

type PassRow = {
  order_id: number;
  missing: number;
  placed: number;
  hopeless: boolean;
  skus: string | null;
};

/** Passes at most: a pass after the first retries the short orders with the devices freed. */
const MAX_PASSES = 3;

export type Reservation = {
  /** Orders with every device unit reserved (orders without device units too). */
  readonly complete: number[];
  /** Orders short of stock, with the SKUs they lacked; nothing of theirs stays reserved. */
  readonly short: { id: number; skus: string }[];
  /** The devices reserved for the complete orders. */
  readonly deviceIds: number[];
  /** The complete orders' lines that named a device and got another one: the device named. */
  readonly passedOver: { orderId: number; imei: string }[];
};

/**
 * Reserves a device for every missing unit of the orders (locked and ready, by the caller), in
 * the caller's transaction: each order gets all its units or none. The units are written
 * `allocated`; the devices' own step (`reserve`) is the caller's.
 */
export async function reserveUnits(
  tx: Transaction,
  orderIds: readonly number[],
  actorId: number | null,
): Promise<Reservation> {
  const complete = new Set(orderIds);
  const short = new Map<number, string>();
  let pending = [...orderIds];
  for (let pass = 1; pass <= MAX_PASSES && pending.length > 0; pass += 1) {
    await tx.query(RESERVE_REQUESTED_SQL, [pending, actorId]);
    const rows = await tx.query<PassRow>(RESERVE_SQL, [pending, actorId]);
    const failed = rows.filter((row) => row.placed < row.missing);
    if (failed.length === 0) break;
    const failedIds = failed.map((row) => row.order_id);
    // A short order keeps nothing: its units go back to the pool for the next pass.
    const freed = await tx.query(
      `DELETE FROM order_line_units u USING order_lines l
       WHERE l.id = u.order_line_id AND l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated'
       RETURNING u.id`,
      [failedIds],
    );
    for (const row of failed) {
      complete.delete(row.order_id);
      short.set(row.order_id, row.skus ?? '');
    }
    const retry = failed.filter((row) => !row.hopeless).map((row) => row.order_id);
    if (freed.length === 0 || retry.length === 0 || pass === MAX_PASSES) break;
    for (const id of retry) complete.add(id);
    for (const id of retry) short.delete(id);
    pending = retry;
  }
  const deviceIds =
    complete.size === 0
      ? []
      : (
          await tx.query<{ device_id: number }>(
            `SELECT u.device_id::int AS device_id FROM order_line_units u
             JOIN order_lines l ON l.id = u.order_line_id
             WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated'
               AND u.device_id IS NOT NULL
             ORDER BY u.device_id`,
            [[...complete]],
          )
        ).map((row) => row.device_id);
  const passedOver =
    complete.size === 0
      ? []
      : await tx.query<{ orderId: number; imei: string }>(
          `SELECT l.order_id::int AS "orderId", d.identifier AS imei
           FROM order_lines l JOIN devices d ON d.id = l.requested_device_id
           WHERE l.order_id = ANY ($1::bigint[]) AND l.requested_device_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM order_line_units u
                             WHERE u.order_line_id = l.id AND u.device_id = d.id
                               AND u.status IN ('allocated', 'picked', 'packed'))
           ORDER BY l.order_id, l.id`,
          [[...complete]],
        );
  return {
    complete: orderIds.filter((id) => complete.has(id)),
    short: [...short].map(([id, skus]) => ({ id, skus })),
    deviceIds,
    passedOver,
  };
}
