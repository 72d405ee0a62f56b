import {
  DASHBOARD_WEEKS,
  REORDER_LIST_COLUMNS,
  accessoryStockList,
  partStockList,
  type AccessoryCover,
  type AccessoryDashboard,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import type { ListQueryOf, ListStore } from '../../toolkit/resource.js';
import { compatibleModelColumns, compatibleWith } from '../master-data/index.js';

const iso = (column: string) => `to_json(${column}) #>> '{}'`;

/**
 * Accessories per SKU and location: the levels themselves (the join leaves the parts out). The
 * location's code is looked up by key for each level (OFFSET 0 keeps the planner from turning it
 * into a join that reads the thousands of locations whole).
 */
export const accessoryStockStore: ListStore<typeof accessoryStockList> = {
  contract: accessoryStockList,
  list: {
    from: `stock_levels s
      JOIN accessories a ON a.id = s.accessory_id
      CROSS JOIN LATERAL (SELECT code FROM locations WHERE id = s.location_id OFFSET 0) l`,
    id: 's.id',
    columns: `s.id::int AS id, s.location_id::int AS location_id, l.code AS location, s.on_hand,
      s.reserved, s.on_hand - s.reserved AS available, ${iso('s.last_counted_at')} AS last_counted_at,
      ${iso('s.last_moved_at')} AS last_moved_at, a.id::int AS accessory_id, a.sku, a.name, a.kind`,
    sorts: {
      sku: { sql: 'lower(a.sku)', type: 'text' },
      location: { sql: 'l.code', type: 'text' },
      on_hand: { sql: 's.on_hand', type: 'integer' },
      last_moved_at: { sql: 'COALESCE(s.last_moved_at, s.updated_at)', type: 'timestamptz' },
    },
    search: (pattern) => [
      '(a.sku ILIKE ? OR a.name ILIKE ? OR a.barcode ILIKE ? OR l.code ILIKE ?)',
      pattern,
      pattern,
      pattern,
      pattern,
    ],
    filters: (query: ListQueryOf<typeof accessoryStockList>) => [
      query.accessory_id !== undefined && ['s.accessory_id = ?', query.accessory_id],
      query.location_id !== undefined && ['s.location_id = ?', query.location_id],
      query.kind !== undefined && ['a.kind = ?', query.kind],
      query.in_stock !== undefined && ['(s.on_hand > 0) = ?', query.in_stock],
    ],
  },
};

/**
 * Parts with their stock over every location, their latest count and their use in the last 30
 * days (from the daily usage rows, never the ledger). Every active part is listed, so a part never received shows its
 * reorder flag too; an inactive one while it still has units.
 */
export const partStockStore: ListStore<typeof partStockList> = {
  contract: partStockList,
  list: {
    from: `parts p
      CROSS JOIN LATERAL (
        SELECT COALESCE(sum(s.on_hand), 0)::int AS on_hand,
          COALESCE(sum(s.reserved), 0)::int AS reserved,
          COALESCE(json_agg(json_build_object('location_id', s.location_id, 'location', l.code,
            'on_hand', s.on_hand) ORDER BY l.code) FILTER (WHERE s.on_hand > 0), '[]') AS bins,
          max(s.last_counted_at) AS last_counted_at
        FROM stock_levels s JOIN locations l ON l.id = s.location_id WHERE s.part_id = p.id
      ) lv
      CROSS JOIN LATERAL (
        SELECT COALESCE(sum(u.consumed), 0)::int AS used FROM stock_usage_days u
        WHERE u.item_kind = 'part' AND u.item_id = p.id AND u.day > current_date - 30
      ) usage`,
    id: 'p.id',
    columns: `p.id::int AS id, p.part_number, p.name, p.category, ${compatibleModelColumns('p')},
      p.cost_cents, lv.on_hand, lv.reserved, lv.on_hand - lv.reserved AS available,
      usage.used AS used_30d, p.reorder_point,
      (p.reorder_point > 0 AND lv.on_hand - lv.reserved <= p.reorder_point) AS below_reorder,
      lv.bins, ${iso('lv.last_counted_at')} AS last_counted_at`,
    sorts: {
      part_number: { sql: 'lower(p.part_number)', type: 'text' },
      name: { sql: 'lower(p.name)', type: 'text' },
      category: { sql: 'p.category', type: 'text' },
    },
    search: (pattern) => [
      '(p.part_number ILIKE ? OR p.name ILIKE ? OR p.barcode ILIKE ?)',
      pattern,
      pattern,
      pattern,
    ],
    filters: (query: ListQueryOf<typeof partStockList>) => [
      ['(p.active OR lv.on_hand > 0)'],
      query.category !== undefined && ['p.category = ?', query.category],
      compatibleWith('p', query.model_id),
      query.location_id !== undefined && [
        'EXISTS (SELECT 1 FROM stock_levels s WHERE s.part_id = p.id AND s.location_id = ? AND s.on_hand > 0)',
        query.location_id,
      ],
      query.below_reorder !== undefined && [
        '(p.reorder_point > 0 AND lv.on_hand - lv.reserved <= p.reorder_point) = ?',
        query.below_reorder,
      ],
    ],
  },
};

export const STOCK_PICKERS = {
  accessories: {
    from: 'accessories',
    id: 'id',
    label: "sku || ' ' || name",
    where: 'active AND ($1::text IS NULL OR sku ILIKE $1 OR name ILIKE $1 OR barcode ILIKE $1)',
    order: 'lower(sku), id',
  },
  parts: {
    from: 'parts',
    id: 'id',
    label: "part_number || ' ' || name",
    where:
      'active AND ($1::text IS NULL OR part_number ILIKE $1 OR name ILIKE $1 OR barcode ILIKE $1)',
    order: 'lower(part_number), id',
  },
  // Counted stock sits in active locations outside quarantine; a bin first, then the rest.
  locations: {
    from: 'locations',
    id: 'id',
    label: "code || COALESCE(' ' || name, '')",
    where: 'active AND NOT quarantine AND ($1::text IS NULL OR code ILIKE $1 OR name ILIKE $1)',
    order: "kind <> 'bin', code, id",
  },
  vendors: {
    from: 'vendors',
    id: 'id',
    label: 'name',
    where: 'active AND ($1::text IS NULL OR name ILIKE $1)',
    order: 'lower(name), id',
  },
} as const satisfies Record<string, PickerSql>;

/**
 * The accessory dashboard, read from the levels (one row per SKU and bin) and the daily usage
 * rows of the last DASHBOARD_WEEKS weeks: its cost follows the SKUs and days, never the ledger.
 */
export async function accessoryDashboard(
  db: Queryable,
  week: string | undefined,
): Promise<AccessoryDashboard> {
  const [skus, weeks, detail, [asOf]] = await Promise.all([
    accessoryCover(db),
    db.query<AccessoryDashboard['weeks'][number]>(
      `SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
         COALESCE(sum(u.consumed), 0)::int AS consumed, COALESCE(sum(u.received), 0)::int AS received
       FROM generate_series(date_trunc('week', current_date) - ($1 - 1) * interval '1 week',
                            date_trunc('week', current_date), interval '1 week') AS w(week)
       LEFT JOIN stock_usage_days u ON u.item_kind = 'accessory'
         AND u.day >= w.week::date AND u.day < (w.week + interval '1 week')::date
       GROUP BY w.week ORDER BY w.week`,
      [DASHBOARD_WEEKS],
    ),
    week === undefined
      ? Promise.resolve(null)
      : db.query<NonNullable<AccessoryDashboard['week_detail']>['skus'][number]>(
          `SELECT a.id::int AS accessory_id, a.sku, a.name, sum(u.consumed)::int AS consumed
           FROM stock_usage_days u JOIN accessories a ON a.id = u.item_id
           WHERE u.item_kind = 'accessory' AND u.consumed > 0
             AND u.day >= date_trunc('week', $1::date)::date
             AND u.day < (date_trunc('week', $1::date) + interval '1 week')::date
           GROUP BY a.id ORDER BY consumed DESC, lower(a.sku)`,
          [week],
        ),
    db.query<{ as_of: string }>(`SELECT ${iso('now()')} AS as_of`),
  ]);
  return {
    as_of: asOf!.as_of,
    skus,
    weeks,
    week_detail:
      week === undefined || detail === null ? null : { week: mondayOf(week), skus: detail },
  };
}

/** The Monday of a date's week, as the chart names weeks. */
function mondayOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** Every active accessory (and any inactive one still in stock) with its cover. */
export function accessoryCover(db: Queryable): Promise<AccessoryCover[]> {
  return db.query<AccessoryCover>(
    `SELECT a.id::int AS accessory_id, a.sku, a.name, a.kind, lv.on_hand, lv.reserved,
       lv.on_hand - lv.reserved AS available, usage.used AS used_30d,
       CASE WHEN usage.used > 0
         THEN round((lv.on_hand - lv.reserved) / (usage.used / 30.0), 1)::float8 END AS days_of_cover,
       a.reorder_point,
       (a.reorder_point > 0 AND lv.on_hand - lv.reserved <= a.reorder_point) AS below_reorder
     FROM accessories a
     CROSS JOIN LATERAL (
       SELECT COALESCE(sum(s.on_hand), 0)::int AS on_hand, COALESCE(sum(s.reserved), 0)::int AS reserved
       FROM stock_levels s WHERE s.accessory_id = a.id
     ) lv
     CROSS JOIN LATERAL (
       SELECT COALESCE(sum(u.consumed), 0)::int AS used FROM stock_usage_days u
       WHERE u.item_kind = 'accessory' AND u.item_id = a.id AND u.day > current_date - 30
     ) usage
     WHERE a.active OR lv.on_hand > 0
     ORDER BY (a.reorder_point > 0 AND lv.on_hand - lv.reserved <= a.reorder_point) DESC,
       lower(a.sku)`,
  );
}

/** The reorder list: the SKUs at or below their reorder point, as the dashboard shows them. */
export async function reorderListFile(
  db: Queryable,
  format: 'csv' | 'xlsx',
): Promise<PreparedFile> {
  const rows = (await accessoryCover(db)).filter((sku) => sku.below_reorder);
  async function* chunks() {
    yield rows.map((row) =>
      REORDER_LIST_COLUMNS.map((column): Cell => row[column.key as keyof AccessoryCover] ?? null),
    );
  }
  return {
    fileName: `accessory-reorder-list-${new Date().toISOString().slice(0, 10)}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, 'Reorder list', REORDER_LIST_COLUMNS, chunks()),
  };
}
