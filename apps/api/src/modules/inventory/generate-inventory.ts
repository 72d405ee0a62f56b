import { DEFAULT_BOX_MAX_QTY } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';

export type GenerateInventoryOptions = {
  /** Devices per box (default DEFAULT_BOX_MAX_QTY, 1 to 200). */
  boxSize?: number;
  /** One full box in this many stays sealed without a location: the putaway queue (default 50). */
  putawayEvery?: number;
};

export type GenerateInventorySummary = {
  boxes: number;
  located: number;
  devices: number;
  seconds: number;
};

const whole = (name: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
};

/**
 * Ready-to-sell stock (DOMAIN.md 5.1 steps 9–10): the in-stock devices that are in no box yet
 * (not held) are packed by model, colour, capacity, grade and lock into inventory boxes of
 * `boxSize`. A group's last, partial box stays open at the consolidation station; of the full
 * boxes one in `putawayEvery` waits sealed for putaway, and the rest are located, one to a slot
 * of the active storage bins (their capacity), in code order; boxes past the bins' room wait
 * for putaway too. Graded and reuse devices are left waiting for consolidation. Set-based: a few
 * statements in all. It needs the locations (`generateLocations`) and writes nothing when there
 * are inventory boxes already.
 */
export async function generateInventory(
  db: Queryable,
  options: GenerateInventoryOptions = {},
): Promise<GenerateInventorySummary> {
  const started = Date.now();
  const boxSize = whole('boxSize', options.boxSize ?? DEFAULT_BOX_MAX_QTY, 1, 200);
  const putawayEvery = whole('putawayEvery', options.putawayEvery ?? 50, 2, 1_000_000);
  const [existing] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM inventory_boxes LIMIT 1) x',
  );
  if (existing!.n > 0) return { boxes: 0, located: 0, devices: 0, seconds: 0 };

  const [base] = await db.query<{ id: number }>(
    'SELECT COALESCE(max(id), 0)::bigint AS id FROM inventory_boxes',
  );
  const baseId = Number(base!.id);
  // Each device's box: its group's chunk of boxSize, numbered across groups. Both statements
  // read it alike (a total order by id), so no table is kept between them.
  const boxOfDevice = `SELECT id AS device_id, model_id, color_id, capacity_gb, grade, carrier_lock,
       dense_rank() OVER (ORDER BY model_id, color_id, capacity_gb, grade, carrier_lock,
         (rn - 1) / $2) AS box_no
     FROM (SELECT d.*, row_number() OVER (PARTITION BY model_id, color_id, capacity_gb, grade,
             carrier_lock ORDER BY id) AS rn
           FROM devices d
           WHERE status = 'in_stock' AND inventory_box_id IS NULL AND grade IS NOT NULL) chosen`;
  await db.query(
    `INSERT INTO inventory_boxes (id, code, model_id, color_id, capacity_gb, grade, carrier_lock,
       max_qty, qty, status, location_id, sealed_at, located_at, created_at, updated_at)
     OVERRIDING SYSTEM VALUE
     WITH grouped AS (
       SELECT box_no, min(model_id) AS model_id, min(color_id) AS color_id,
         min(capacity_gb) AS capacity_gb, min(grade) AS grade, min(carrier_lock) AS carrier_lock,
         count(*)::int AS qty
       FROM (${boxOfDevice}) g GROUP BY box_no
     ),
     boxes AS (
       -- Full boxes are put away, but one in putawayEvery waits for putaway.
       SELECT *, CASE WHEN qty = $2 AND box_no % $3 <> 0 THEN
           row_number() OVER (PARTITION BY qty = $2 AND box_no % $3 <> 0 ORDER BY box_no) END
         AS slot_no
       FROM grouped
     ),
     -- Storage slots: each active, non-quarantine bin with a capacity, once per box it holds.
     slots AS (
       SELECT l.id AS location_id, row_number() OVER (ORDER BY l.code, n) AS slot_no
       FROM locations l CROSS JOIN LATERAL generate_series(1, l.capacity_boxes) n
       WHERE l.kind = 'bin' AND l.active AND NOT l.quarantine AND l.capacity_boxes IS NOT NULL
     )
     SELECT $1 + b.box_no, 'IB-' || lpad(($1 + b.box_no)::text, 6, '0'), b.model_id, b.color_id,
       b.capacity_gb, b.grade, b.carrier_lock, $2, b.qty,
       CASE WHEN b.qty < $2 THEN 'open' WHEN s.location_id IS NULL THEN 'sealed' ELSE 'located' END,
       s.location_id,
       CASE WHEN b.qty = $2 THEN now() - (b.box_no % 90) * interval '1 day' END,
       CASE WHEN s.location_id IS NOT NULL THEN now() - (b.box_no % 90) * interval '1 day' END,
       now() - (b.box_no % 90 + 1) * interval '1 day', now()
     FROM boxes b LEFT JOIN slots s ON s.slot_no = b.slot_no`,
    [baseId, boxSize, putawayEvery],
  );
  const [moved] = await db.query<{ n: number }>(
    `WITH moved AS (
       UPDATE devices d SET inventory_box_id = $1 + g.box_no, warehouse_box_id = NULL
       FROM (${boxOfDevice}) g WHERE d.id = g.device_id
       RETURNING 1)
     SELECT count(*)::int AS n FROM moved`,
    [baseId, boxSize],
  );
  await db.query(
    `SELECT setval(pg_get_serial_sequence('inventory_boxes', 'id'),
       GREATEST(1, (SELECT COALESCE(max(id), 0) FROM inventory_boxes)))`,
  );
  await db.query(
    `SELECT setval('inventory_box_numbers',
       GREATEST(1, (SELECT COALESCE(max(id), 0) FROM inventory_boxes)))`,
  );
  const [counts] = await db.query<{ boxes: number; located: number }>(
    `SELECT count(*)::int AS boxes, count(*) FILTER (WHERE status = 'located')::int AS located
     FROM inventory_boxes WHERE id > $1`,
    [baseId],
  );
  return {
    boxes: counts!.boxes,
    located: counts!.located,
    devices: moved!.n,
    seconds: (Date.now() - started) / 1000,
  };
}

export type GenerateBoxHistoryOptions = {
  /** Boxes sold empty and archived over the two years before `anchor`. */
  boxes: number;
  /** The newest box's time; by default today at 00:00 UTC. */
  anchor?: Date;
};

/**
 * The boxes a warehouse has emptied and archived (DOMAIN.md 3.7: … → empty → archived), which the
 * device boxes' list pages through beside the boxes in stock: the list's table at its size after
 * years of work (about 20,000 boxes at a million devices). Each is of a generated model, colour
 * and grade, sealed, put away and emptied at times spread over two years; none holds a device.
 * Set-based: one statement. Run after `generateDatabase` (it reads the models and colours).
 */
export async function generateBoxHistory(
  db: Queryable,
  options: GenerateBoxHistoryOptions,
): Promise<{ boxes: number }> {
  const boxes = whole('boxes', options.boxes, 1, 10_000_000);
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  if (Number.isNaN(anchorDate.getTime())) throw new RangeError('anchor must be a date.');
  // Box g of n was opened `age` before the anchor, spread over two years, and sealed a day later.
  const opened = `$2::timestamptz - interval '730 days' * ($1 - g) / $1 - interval '30 days'`;
  const [made] = await db.query<{ n: number }>(
    `WITH made AS (
       INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, carrier_lock, max_qty,
         qty, status, source, sealed_at, located_at, created_at, updated_at)
       SELECT k.models[g % cardinality(k.models) + 1],
         k.colors[g % GREATEST(cardinality(k.colors), 1) + 1],
         (ARRAY[32, 64, 128])[g % 3 + 1], (ARRAY['A', 'B', 'C', 'A+'])[g % 4 + 1],
         CASE WHEN g % 5 = 0 THEN 'T-Mobile' END, ${DEFAULT_BOX_MAX_QTY}, 0, 'archived',
         CASE WHEN g % 9 = 0 THEN 'reuse' ELSE 'consolidation' END,
         ${opened} + interval '1 day', ${opened} + interval '2 days', ${opened},
         ${opened} + interval '30 days'
       FROM generate_series(1, $1::int) AS g,
         (SELECT (SELECT array_agg(id ORDER BY id) FROM device_models) AS models,
                 (SELECT COALESCE(array_agg(id ORDER BY id), '{}') FROM colors) AS colors) k
       RETURNING 1)
     SELECT count(*)::int AS n FROM made`,
    [boxes, anchorDate.toISOString()],
  );
  return { boxes: made!.n };
}
