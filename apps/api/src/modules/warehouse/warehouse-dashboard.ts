import {
  AUDIT_SOON_DAYS,
  DEVICE_GRADES,
  HOLD_REASONS,
  STOCK_AGE_BUCKETS,
  WAREHOUSE_DASHBOARD_MAX_AGE_MINUTES,
  type HoldReason,
  type WarehouseFigures,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { SnapshotDefinition } from '../../toolkit/snapshots.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';

/*
 * The warehouse dashboard's figures (DOMAIN.md 4.18), read by the snapshot toolkit in the
 * background, never on a request. The devices are read once, in ranges of ids (the primary key),
 * DEVICE_RANGE at a time: on PGlite each statement has the database to itself, so a range keeps
 * the scans and lists waiting at most one short statement; on PostgreSQL the ranges cost about what
 * one pass does. Everything else reads tables that grow with the warehouse (locations, boxes,
 * accessories), not with the registry.
 */

/** Devices read per statement. */
export const DEVICE_RANGE = 50_000;

/** Statuses the dashboard counts: in stock (ready to sell), on hold and in repair. */
const COUNTED_STATUSES = ['in_stock', 'hold', 'in_repair'] as const;

/** The age bucket of a device in stock, by its receipt: the index of STOCK_AGE_BUCKETS. */
const AGE_BUCKET_SQL = `CASE ${STOCK_AGE_BUCKETS.map((bucket, index) =>
  bucket.to === null
    ? `ELSE ${index}`
    : `WHEN d.received_at > $3::timestamptz - interval '${bucket.to + 1} days' THEN ${index}`,
).join(' ')} END`;

type DeviceGroup = {
  status: (typeof COUNTED_STATUSES)[number];
  hold_reason: HoldReason | null;
  model_id: number;
  grade: string | null;
  age: number | null;
  units: number;
};

/** The counted devices of ids in (from, to], grouped by what the figures tell apart. */
const deviceGroups = (db: Queryable, from: number, to: number, asOf: string) =>
  db.query<DeviceGroup>(
    `SELECT d.status, d.hold_reason, d.model_id::int AS model_id, d.grade,
       CASE WHEN d.status = 'in_stock' THEN ${AGE_BUCKET_SQL} END AS age, count(*)::int AS units
     FROM devices d
     WHERE d.id > $1 AND d.id <= $2 AND d.status = ANY ($4::text[])
     GROUP BY 1, 2, 3, 4, 5`,
    [from, to, asOf, COUNTED_STATUSES],
  );

/** Grades best first, as DEVICE_GRADES lists them; a device without a grade last. */
const gradeOrder = (grade: string | null) =>
  grade === null ? DEVICE_GRADES.length : DEVICE_GRADES.indexOf(grade as never);

function gradeList(units: ReadonlyMap<string | null, number>) {
  return [...units]
    .map(([grade, count]) => ({ grade, units: count }))
    .sort((a, b) => gradeOrder(a.grade) - gradeOrder(b.grade));
}

const add = <K>(map: Map<K, number>, key: K, units: number) =>
  map.set(key, (map.get(key) ?? 0) + units);

/** The device figures: ready to sell by model and grade, stock age, holds and repair. */
async function deviceFigures(db: Queryable, asOf: string) {
  const [{ last }] = (await db.query<{ last: number }>(
    'SELECT COALESCE(max(id), 0)::float8 AS last FROM devices',
  )) as [{ last: number }];
  const byModel = new Map<number, Map<string | null, number>>();
  const byGrade = new Map<string | null, number>();
  const ages = new Map<number, number>();
  const holds = new Map<HoldReason, number>();
  let inRepair = 0;
  for (let from = 0; from < last; from += DEVICE_RANGE) {
    for (const group of await deviceGroups(db, from, from + DEVICE_RANGE, asOf)) {
      if (group.status === 'in_stock') {
        const grades = byModel.get(group.model_id) ?? new Map<string | null, number>();
        byModel.set(group.model_id, add(grades, group.grade, group.units));
        add(byGrade, group.grade, group.units);
        add(ages, group.age!, group.units);
      } else if (group.status === 'hold') {
        add(holds, group.hold_reason!, group.units);
      } else {
        inRepair += group.units;
      }
    }
  }
  const names = await db.query<{ id: number; model: string }>(
    `SELECT m.id::int AS id, ${MODEL_DISPLAY_NAME} AS model
     FROM device_models m JOIN brands b ON b.id = m.brand_id WHERE m.id = ANY ($1::bigint[])`,
    [[...byModel.keys()]],
  );
  const nameOf = new Map(names.map((row) => [row.id, row.model]));
  const models = [...byModel].map(([modelId, grades]) => ({
    model_id: modelId,
    model: nameOf.get(modelId) ?? `Model ${modelId}`,
    units: [...grades.values()].reduce((sum, units) => sum + units, 0),
    by_grade: gradeList(grades),
  }));
  models.sort((a, b) => b.units - a.units || a.model.localeCompare(b.model));
  return {
    rts: {
      units: models.reduce((sum, model) => sum + model.units, 0),
      by_grade: gradeList(byGrade),
      by_model: models,
    },
    stock_age: STOCK_AGE_BUCKETS.map((bucket, index) => ({
      bucket: bucket.key,
      units: ages.get(index) ?? 0,
    })),
    holds: HOLD_REASONS.map((reason) => ({ reason, units: holds.get(reason) ?? 0 })).filter(
      (reason) => reason.units > 0,
    ),
    inRepair,
  };
}

type ZoneRow = Omit<WarehouseFigures['boxes']['by_zone'][number], 'utilisation'> & {
  filled: number;
};

/** Boxes put away per zone with the devices they hold; capacity and use of active locations. */
const zoneRows = (db: Queryable) =>
  db.query<ZoneRow>(
    `WITH per_location AS (
       SELECT l.zone_id, l.active AND l.capacity_boxes IS NOT NULL AS counted, l.capacity_boxes,
         count(b.id)::int AS boxes, COALESCE(sum(b.qty), 0)::int AS units
       FROM locations l LEFT JOIN inventory_boxes b ON b.location_id = l.id
       GROUP BY l.id)
     SELECT z.id::int AS zone_id, z.code AS zone, z.name, z.quarantine,
       COALESCE(sum(p.boxes), 0)::int AS boxes, COALESCE(sum(p.units), 0)::int AS units,
       COALESCE(sum(p.capacity_boxes) FILTER (WHERE p.counted), 0)::int AS capacity,
       COALESCE(sum(p.boxes) FILTER (WHERE p.counted), 0)::int AS filled
     FROM locations z JOIN per_location p ON p.zone_id = z.id
     WHERE z.kind = 'zone'
     GROUP BY z.id ORDER BY z.code`,
  );

/** Boxes in a capacity, in percent with one decimal; null without a capacity. */
const percentOf = (boxes: number, capacity: number) =>
  capacity > 0 ? Math.round((boxes * 1000) / capacity) / 10 : null;

/** Every figure of the dashboard as of `asOf`. */
export async function warehouseFigures(db: Queryable, asOf: string): Promise<WarehouseFigures> {
  const devices = await deviceFigures(db, asOf);
  const zones = await zoneRows(db);
  const [waiting] = await db.query<{ open: number; sealed: number }>(
    `SELECT (SELECT count(*) FROM inventory_boxes WHERE status = 'open')::int AS open,
       (SELECT count(*) FROM inventory_boxes WHERE status = 'sealed')::int AS sealed`,
  );
  const accessories = await db.query<WarehouseFigures['accessories_below_reorder'][number]>(
    `SELECT a.id::int AS accessory_id, a.sku, a.name, lv.on_hand - lv.reserved AS available,
       a.reorder_point
     FROM accessories a
     CROSS JOIN LATERAL (
       SELECT COALESCE(sum(s.on_hand), 0)::int AS on_hand,
         COALESCE(sum(s.reserved), 0)::int AS reserved
       FROM stock_levels s WHERE s.accessory_id = a.id) lv
     WHERE (a.active OR lv.on_hand > 0) AND a.reorder_point > 0
       AND lv.on_hand - lv.reserved <= a.reorder_point
     ORDER BY lv.on_hand - lv.reserved, lower(a.sku)`,
  );
  // The location list's "audit due" is the same test: the next audit's date has come.
  const audits = await db.query<WarehouseFigures['audits']['by_zone'][number]>(
    `SELECT z.id::int AS zone_id, z.code AS zone,
       count(*) FILTER (WHERE l.next_audit_due <= current_date)::int AS due,
       count(*) FILTER (WHERE l.next_audit_due > current_date)::int AS due_soon
     FROM locations l JOIN locations z ON z.id = l.zone_id
     WHERE l.next_audit_due <= current_date + $1::int
     GROUP BY z.id ORDER BY z.code`,
    [AUDIT_SOON_DAYS],
  );

  const located = zones.reduce((sum, zone) => sum + zone.boxes, 0);
  const capacity = zones.reduce((sum, zone) => sum + zone.capacity, 0);
  const filled = zones.reduce((sum, zone) => sum + zone.filled, 0);
  const quarantine = zones.filter((zone) => zone.quarantine);
  return {
    rts: devices.rts,
    boxes: {
      open: waiting!.open,
      sealed: waiting!.sealed,
      located,
      by_zone: zones.map(({ filled: zoneFilled, ...zone }) => ({
        ...zone,
        utilisation: percentOf(zoneFilled, zone.capacity),
      })),
    },
    utilisation: { capacity, boxes: filled, percent: percentOf(filled, capacity) },
    stock_age: devices.stock_age,
    holds: {
      on_hold: devices.holds.reduce((sum, reason) => sum + reason.units, 0),
      by_reason: devices.holds,
      quarantine_boxes: quarantine.reduce((sum, zone) => sum + zone.boxes, 0),
      quarantine_units: quarantine.reduce((sum, zone) => sum + zone.units, 0),
      in_repair: devices.inRepair,
    },
    accessories_below_reorder: accessories,
    audits: {
      due: audits.reduce((sum, zone) => sum + zone.due, 0),
      due_soon: audits.reduce((sum, zone) => sum + zone.due_soon, 0),
      by_zone: audits,
    },
  };
}

/** The dashboard's snapshot: read again by the refresher once it is older than its max age. */
export const warehouseDashboardSnapshot: SnapshotDefinition<WarehouseFigures> = {
  name: 'warehouse-dashboard',
  maxAgeMs: WAREHOUSE_DASHBOARD_MAX_AGE_MINUTES * 60_000,
  compute: warehouseFigures,
};
