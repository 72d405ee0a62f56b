import type { Queryable } from '../../db/db.js';

export type GenerateStockOptions = {
  /** Accessories to create when there are none (default 40, at most 1,000). */
  accessories?: number;
  /** Parts to create when there are none (default 60, at most 1,000). */
  parts?: number;
  /** Days of history before `anchor` (default 112: sixteen weeks, at most 730). */
  days?: number;
  /** The generated data's "now"; default today at 00:00 UTC. */
  anchor?: Date;
};

export type GenerateStockSummary = {
  accessories: number;
  parts: number;
  levels: number;
  moves: number;
  seconds: number;
};

const whole = (name: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
};

const ACCESSORY_NAMES = [
  ['charger', 'USB-C charger 20 W'],
  ['cable', 'USB-C to USB-C cable 1 m'],
  ['case', 'Clear protective case'],
  ['protector', 'Tempered glass screen protector'],
  ['earbuds', 'Wired earbuds USB-C'],
  ['charger', 'Lightning charger 12 W'],
  ['cable', 'Lightning cable 1 m'],
  ['case', 'Rugged case'],
];
const PART_NAMES = [
  ['screen', 'LCD assembly'],
  ['battery', 'Battery'],
  ['port', 'Charging port flex'],
  ['back', 'Back glass'],
  ['camera', 'Rear camera module'],
  ['board', 'Logic board'],
];

/**
 * Counted stock in use (DOMAIN.md 2.1): every accessory and part (a catalogue of them is created
 * when there is none) sits in one or two storage bins, with `days` of history in the ledger: a
 * first receipt, a restock every four weeks for half of them, near-daily consumption, and for one
 * in three a move to a second bin. The levels are the sums of the moves, so the ledger and the
 * levels agree, and the daily usage rows are kept by the ledger's trigger. What is left varies,
 * so some items are below their reorder point. Set-based: a few statements in all.
 *
 * It needs the locations (`generateLocations`) and writes no stock if there is already some.
 */
export async function generateStock(
  tx: Queryable,
  options: GenerateStockOptions = {},
): Promise<GenerateStockSummary> {
  const started = performance.now();
  const accessoryCount = whole('accessories', options.accessories ?? 40, 0, 1000);
  const partCount = whole('parts', options.parts ?? 60, 0, 1000);
  const days = whole('days', options.days ?? 112, 28, 730);
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  if (Number.isNaN(anchorDate.getTime())) throw new RangeError('anchor must be a date.');
  const anchor = anchorDate.toISOString();

  const [existing] = await tx.query<{ moves: number; bins: number }>(
    `SELECT (SELECT count(*) FROM stock_moves)::int AS moves,
       (SELECT count(*) FROM locations WHERE kind = 'bin' AND active AND NOT quarantine)::int AS bins`,
  );
  if (existing!.moves > 0) throw new Error('The database holds stock moves already.');
  if (existing!.bins === 0) throw new Error('Generate the locations first: there is no bin.');

  await tx.query(
    `INSERT INTO accessories (sku, name, kind, compatible_model_ids, reorder_point)
     SELECT 'ACC-' || lpad(n::text, 4, '0'), names.name || ' #' || n, names.kind,
       ARRAY(SELECT id FROM device_models ORDER BY id OFFSET n % 50 LIMIT 2),
       20 + (n % 5) * 10
     FROM generate_series(1, $1::int) AS n
     CROSS JOIN LATERAL (SELECT ($2::text[][])[1 + (n - 1) % $3][1] AS kind,
                                ($2::text[][])[1 + (n - 1) % $3][2] AS name) names
     WHERE NOT EXISTS (SELECT 1 FROM accessories)`,
    [accessoryCount, ACCESSORY_NAMES, ACCESSORY_NAMES.length],
  );
  await tx.query(
    `INSERT INTO parts (part_number, name, category, compatible_model_ids, cost_cents, reorder_point)
     SELECT 'PRT-' || lpad(n::text, 4, '0'), names.name || ' #' || n, names.category,
       ARRAY(SELECT id FROM device_models ORDER BY id OFFSET n % 50 LIMIT 1),
       500 + (n * 389) % 6000, 5 + (n % 4) * 5
     FROM generate_series(1, $1::int) AS n
     CROSS JOIN LATERAL (SELECT ($2::text[][])[1 + (n - 1) % $3][1] AS category,
                                ($2::text[][])[1 + (n - 1) % $3][2] AS name) names
     WHERE NOT EXISTS (SELECT 1 FROM parts)`,
    [partCount, PART_NAMES, PART_NAMES.length],
  );

  // Items numbered 1.. with their bins: the primary bin spread over the warehouse, a second
  // bin for one item in three. Quantities are hashed from the item's number and the day.
  const items = `bins AS (
      SELECT id, row_number() OVER (ORDER BY code) - 1 AS k FROM locations
      WHERE kind = 'bin' AND active AND NOT quarantine
    ), items AS (
      SELECT i.kind, i.id, i.n, i.cost,
        (SELECT id FROM bins WHERE bins.k = (i.n * 7) % (SELECT count(*) FROM bins)) AS primary_bin,
        (SELECT id FROM bins WHERE bins.k = (i.n * 7 + 1) % (SELECT count(*) FROM bins)) AS second_bin
      FROM (
        SELECT 'accessory' AS kind, id, row_number() OVER (ORDER BY id) AS n, NULL::int AS cost
        FROM accessories WHERE active
        UNION ALL
        SELECT 'part', id, 1000 + row_number() OVER (ORDER BY id), cost_cents FROM parts WHERE active
      ) i
    ), consumption AS (
      SELECT items.kind, items.id, items.primary_bin, d,
        1 + ((items.n * 7919 + d * 104729) % 1000) % (1 + items.n % 4) AS qty
      FROM items CROSS JOIN generate_series(1, $2::int) AS d
      WHERE (items.n * 31 + d * 17) % 10 < (CASE WHEN items.kind = 'part' THEN 3 ELSE 7 END)
    ), totals AS (
      SELECT kind, id, sum(qty) AS used FROM consumption GROUP BY kind, id
    )`;
  const at = (day: string) => `$1::timestamptz - ($2::int - ${day}) * interval '1 day'`;
  const [moves] = await tx.query<{ n: number }>(
    `WITH ${items}, written AS (
       INSERT INTO stock_moves (item_kind, item_id, qty, from_location_id, to_location_id, reason,
         reference, vendor_id, unit_cost_cents, at)
       -- The first receipt covers everything used later and leaves 12 to 131 units; half the
       -- items are restocked every four weeks.
       SELECT items.kind, items.id,
         COALESCE(totals.used, 0) + 12 + (items.n * 37) % 120 + (CASE WHEN items.n % 3 = 0 THEN 10 ELSE 0 END),
         NULL::bigint, items.primary_bin, 'receipt', 'PO-' || lpad(items.n::text, 5, '0') || '-1',
         CASE WHEN items.kind = 'part' THEN (SELECT min(id) FROM vendors) END,
         CASE WHEN items.kind = 'part' THEN items.cost END,
         ${at('0')} + interval '9 hours'
       FROM items LEFT JOIN totals USING (kind, id)
       UNION ALL
       SELECT items.kind, items.id, 20, NULL, items.primary_bin, 'receipt',
         'PO-' || lpad(items.n::text, 5, '0') || '-' || (2 + d / 28),
         CASE WHEN items.kind = 'part' THEN (SELECT min(id) FROM vendors) END,
         CASE WHEN items.kind = 'part' THEN items.cost END,
         ${at('d')} + interval '8 hours'
       FROM items CROSS JOIN generate_series(28, $2::int - 1, 28) AS d
       WHERE items.n % 2 = 0
       UNION ALL
       SELECT items.kind, items.id, 10, items.primary_bin, items.second_bin, 'move', NULL, NULL, NULL,
         ${at('1')} + interval '10 hours'
       FROM items WHERE items.n % 3 = 0 AND items.second_bin <> items.primary_bin
       UNION ALL
       SELECT kind, id, qty, primary_bin, NULL, 'consume',
         CASE WHEN kind = 'part' THEN 'RT-' ELSE 'SO-' END || lpad((d * 100 + id % 100)::text, 7, '0'),
         NULL, NULL, ${at('d')} + interval '14 hours'
       FROM consumption
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM written`,
    [anchor, days],
  );

  // The levels are what the ledger says: in minus out per item and location.
  const [levels] = await tx.query<{ n: number }>(
    `WITH flows AS (
       SELECT item_kind, item_id, to_location_id AS location_id, qty, at FROM stock_moves
       WHERE to_location_id IS NOT NULL
       UNION ALL
       SELECT item_kind, item_id, from_location_id, -qty, at FROM stock_moves
       WHERE from_location_id IS NOT NULL
     ), written AS (
       INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand, reserved, last_moved_at,
         last_counted_at)
       SELECT item_kind, item_id, location_id, sum(qty), LEAST(sum(qty), item_id % 3),
         max(at), CASE WHEN item_id % 2 = 0 THEN max(at) END
       FROM flows GROUP BY item_kind, item_id, location_id
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM written`,
  );
  const [counts] = await tx.query<{ accessories: number; parts: number }>(
    'SELECT (SELECT count(*) FROM accessories)::int AS accessories, (SELECT count(*) FROM parts)::int AS parts',
  );
  return {
    accessories: counts!.accessories,
    parts: counts!.parts,
    levels: levels!.n,
    moves: moves!.n,
    seconds: (performance.now() - started) / 1000,
  };
}
