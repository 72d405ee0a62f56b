import type { Db } from '../db/db.js';

/** A zone with active bins, an inactive bin and a quarantine zone, for the stock tests. */
export type StockPlaces = {
  bins: number[];
  inactiveBin: number;
  quarantineBin: number;
  accessory: number;
  part: number;
  vendor: number;
};

export async function seedStockPlaces(db: Db): Promise<StockPlaces> {
  const [zone] = await db.query<{ id: number }>(
    "INSERT INTO locations (code, kind, active) VALUES ('S', 'zone', true) RETURNING id::int AS id",
  );
  const bins = await db.query<{ id: number }>(
    `INSERT INTO locations (code, kind, parent_id, active)
     SELECT 'S-' || n, 'bin', $1, n <= 3 FROM generate_series(1, 4) AS n
     RETURNING id::int AS id`,
    [zone!.id],
  );
  const [quarantine] = await db.query<{ id: number }>(
    `INSERT INTO locations (code, kind, active, quarantine) VALUES ('Q', 'zone', true, true)
     RETURNING id::int AS id`,
  );
  const [quarantineBin] = await db.query<{ id: number }>(
    `INSERT INTO locations (code, kind, parent_id, active) VALUES ('Q-1', 'bin', $1, true)
     RETURNING id::int AS id`,
    [quarantine!.id],
  );
  const [accessory] = await db.query<{ id: number }>(
    `INSERT INTO accessories (sku, name, kind, reorder_point)
     VALUES ('CHG-20W', 'USB-C charger 20 W', 'charger', 10) RETURNING id::int AS id`,
  );
  const [part] = await db.query<{ id: number }>(
    `INSERT INTO parts (part_number, name, category, cost_cents, reorder_point)
     VALUES ('LCD-A15', 'Galaxy A15 LCD', 'screen', 1000, 5) RETURNING id::int AS id`,
  );
  const [vendor] = await db.query<{ id: number }>(
    "INSERT INTO vendors (name, type) VALUES ('Parts Depot', 'supplier') RETURNING id::int AS id",
  );
  return {
    bins: bins.slice(0, 3).map((bin) => bin.id),
    inactiveBin: bins[3]!.id,
    quarantineBin: quarantineBin!.id,
    accessory: accessory!.id,
    part: part!.id,
    vendor: vendor!.id,
  };
}

/** What the ledger says is at each location of an item: in minus out. */
export async function ledgerOf(db: Db, kind: 'accessory' | 'part', itemId: number) {
  return db.query<{ location_id: number; ledger: number; on_hand: number }>(
    `SELECT s.location_id::int AS location_id, s.on_hand,
       (COALESCE((SELECT sum(qty) FROM stock_moves m WHERE m.item_kind = s.item_kind
                   AND m.item_id = s.item_id AND m.to_location_id = s.location_id), 0)
        - COALESCE((SELECT sum(qty) FROM stock_moves m WHERE m.item_kind = s.item_kind
                   AND m.item_id = s.item_id AND m.from_location_id = s.location_id), 0))::int AS ledger
     FROM stock_levels s WHERE s.item_kind = $1 AND s.item_id = $2 ORDER BY s.location_id`,
    [kind, itemId],
  );
}
