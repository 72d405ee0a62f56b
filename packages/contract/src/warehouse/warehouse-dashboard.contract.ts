import * as z from 'zod/mini';
import { WAREHOUSE_DASHBOARD_ACCESS } from '../guards.js';
import { defineEndpoint } from '../endpoint.js';
import { HOLD_REASONS } from '../receiving/device-states.js';
import { downloadSchema, FILE_FORMATS, type FileColumn } from '../resource.js';
import { snapshotRefreshSchema, snapshotSchema } from '../snapshots.js';

/**
 * The warehouse dashboard (DOMAIN.md 4.18, `/warehouse/dashboard`): ready-to-sell units by model
 * and grade, boxes by zone, location utilisation, stock age, holds, quarantine and repair,
 * accessories below their reorder point and location audits due. Read-only. Its figures are a
 * snapshot the server keeps (decision: the snapshot toolkit), at most
 * WAREHOUSE_DASHBOARD_MAX_AGE_MINUTES old, and refreshed on demand by those who read it.
 */

/** How old the figures may get before the server reads them again. */
export const WAREHOUSE_DASHBOARD_MAX_AGE_MINUTES = 5;

/** The age of units in stock, in whole days since their receipt; `to` null: and older. */
export const STOCK_AGE_BUCKETS = [
  { key: '0-30', label: '0–30 days', from: 0, to: 30 },
  { key: '31-60', label: '31–60 days', from: 31, to: 60 },
  { key: '61-90', label: '61–90 days', from: 61, to: 90 },
  { key: '91-180', label: '91–180 days', from: 91, to: 180 },
  { key: '181+', label: 'Over 180 days', from: 181, to: null },
] as const;
export type StockAgeBucket = (typeof STOCK_AGE_BUCKETS)[number]['key'];
const STOCK_AGE_KEYS = STOCK_AGE_BUCKETS.map((bucket) => bucket.key) as [
  StockAgeBucket,
  ...StockAgeBucket[],
];

/** Location audits coming due within this many days are named beside those due now. */
export const AUDIT_SOON_DAYS = 7;

/** Units of one grade, best grade first (DEVICE_GRADES' order). */
const gradeUnits = z.object({ grade: z.nullable(z.string()), units: z.int() });

/** A share of capacity in percent, one decimal; null where there is no capacity to fill. */
const percent = z.nullable(z.number());

export const warehouseFiguresSchema = z.object({
  /**
   * Devices in stock (graded, boxed, ready to sell): by grade, and by model (most units first)
   * with each model's grades. A grade of null is a device in stock without one (none should be).
   */
  rts: z.object({
    units: z.int(),
    by_grade: z.array(gradeUnits),
    by_model: z.array(
      z.object({
        model_id: z.int(),
        model: z.string(),
        units: z.int(),
        by_grade: z.array(gradeUnits),
      }),
    ),
  }),
  /** Inventory boxes: those put away by zone, and those not put away yet. */
  boxes: z.object({
    open: z.int(),
    /** Sealed and waiting for putaway. */
    sealed: z.int(),
    located: z.int(),
    by_zone: z.array(
      z.object({
        zone_id: z.int(),
        zone: z.string(),
        name: z.nullable(z.string()),
        quarantine: z.boolean(),
        boxes: z.int(),
        /** The devices the zone's boxes hold. */
        units: z.int(),
        /** Boxes the zone's active locations hold at most (those with a capacity). */
        capacity: z.int(),
        /** Boxes in those locations, of their capacity. */
        utilisation: percent,
      }),
    ),
  }),
  /** Every active location with a capacity: boxes in them, of what they hold at most. */
  utilisation: z.object({ capacity: z.int(), boxes: z.int(), percent }),
  /** Units in stock by days since their receipt (STOCK_AGE_BUCKETS, in that order). */
  stock_age: z.array(z.object({ bucket: z.enum(STOCK_AGE_KEYS), units: z.int() })),
  holds: z.object({
    on_hold: z.int(),
    by_reason: z.array(z.object({ reason: z.enum(HOLD_REASONS), units: z.int() })),
    /** Boxes put away in quarantine zones and the devices they hold. */
    quarantine_boxes: z.int(),
    quarantine_units: z.int(),
    in_repair: z.int(),
  }),
  /** Accessories whose available units are at or under their reorder point, fewest first. */
  accessories_below_reorder: z.array(
    z.object({
      accessory_id: z.int(),
      sku: z.string(),
      name: z.string(),
      available: z.int(),
      reorder_point: z.int(),
    }),
  ),
  /** Location audits: due now (the next audit's date has come) and due within AUDIT_SOON_DAYS. */
  audits: z.object({
    due: z.int(),
    due_soon: z.int(),
    by_zone: z.array(
      z.object({ zone_id: z.int(), zone: z.string(), due: z.int(), due_soon: z.int() }),
    ),
  }),
});
export type WarehouseFigures = z.infer<typeof warehouseFiguresSchema>;

export const warehouseDashboardSchema = snapshotSchema(warehouseFiguresSchema);
export type WarehouseDashboard = z.infer<typeof warehouseDashboardSchema>;

export const warehouseDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse/dashboard',
  summary:
    'Ready-to-sell units by model and grade, boxes by zone, location utilisation, stock age, holds, repair, accessories below reorder and audits due, with the moment they were read',
  tag: 'Warehouse',
  guard: WAREHOUSE_DASHBOARD_ACCESS,
  response: warehouseDashboardSchema,
});

export const warehouseDashboardRefreshSchema = snapshotRefreshSchema(warehouseFiguresSchema);
export type WarehouseDashboardRefresh = z.infer<typeof warehouseDashboardRefreshSchema>;

export const refreshWarehouseDashboardEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse/dashboard/refresh',
  summary:
    'Read the warehouse figures again now (one refresh at a time across servers: a refresh already running is waited for and answered)',
  tag: 'Warehouse',
  guard: WAREHOUSE_DASHBOARD_ACCESS,
  response: warehouseDashboardRefreshSchema,
});

/** The dashboard's widgets, each exported as the figures it shows (UX.md: every widget exports). */
export const WAREHOUSE_WIDGET_FILES = {
  rts: {
    title: 'Ready to sell',
    columns: [
      { key: 'model', header: 'Model', example: 'Motorola Moto G Play 2023' },
      { key: 'grade', header: 'Grade', example: 'A' },
      { key: 'units', header: 'Units', example: '120' },
    ],
  },
  zones: {
    title: 'Boxes by zone',
    columns: [
      { key: 'zone', header: 'Zone', example: 'A' },
      { key: 'name', header: 'Name', example: 'Storage A' },
      { key: 'quarantine', header: 'Quarantine', example: 'no' },
      { key: 'boxes', header: 'Boxes', example: '40' },
      { key: 'units', header: 'Devices', example: '800' },
      { key: 'capacity', header: 'Capacity (boxes)', example: '60' },
      { key: 'utilisation', header: 'Utilisation %', example: '66.7' },
    ],
  },
  stock_age: {
    title: 'Stock age',
    columns: [
      { key: 'age', header: 'Since receipt', example: '0–30 days' },
      { key: 'units', header: 'Units in stock', example: '300' },
    ],
  },
  holds: {
    title: 'Holds, quarantine and repair',
    columns: [
      { key: 'devices', header: 'Devices', example: 'On hold: blacklist' },
      { key: 'units', header: 'Units', example: '3' },
    ],
  },
  accessories: {
    title: 'Accessories below reorder',
    columns: [
      { key: 'sku', header: 'SKU', example: 'CHG-USBC-20W' },
      { key: 'name', header: 'Name', example: 'USB-C charger 20 W' },
      { key: 'available', header: 'Available', example: '3' },
      { key: 'reorder_point', header: 'Reorder point', example: '10' },
    ],
  },
  audits: {
    title: 'Location audits due',
    columns: [
      { key: 'zone', header: 'Zone', example: 'A' },
      { key: 'due', header: 'Due now', example: '4' },
      { key: 'due_soon', header: `Due within ${AUDIT_SOON_DAYS} days`, example: '2' },
    ],
  },
} as const satisfies Record<string, { title: string; columns: readonly FileColumn[] }>;
export type WarehouseWidget = keyof typeof WAREHOUSE_WIDGET_FILES;
const WAREHOUSE_WIDGETS = Object.keys(WAREHOUSE_WIDGET_FILES) as [
  WarehouseWidget,
  ...WarehouseWidget[],
];

export const warehouseDashboardExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse/dashboard/exports',
  summary: 'A download link for one widget of the warehouse dashboard, as its kept figures',
  tag: 'Warehouse',
  guard: WAREHOUSE_DASHBOARD_ACCESS,
  body: z.object({
    widget: z.enum(WAREHOUSE_WIDGETS, 'Choose the widget to export.'),
    format: z._default(z.enum(FILE_FORMATS), 'csv'),
  }),
  response: downloadSchema,
  successStatus: 201,
});
