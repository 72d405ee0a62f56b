import * as z from 'zod/mini';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { ACCESSORY_KINDS } from '../master-data/accessories.contract.js';
import { entityId, optionalText, requiredText } from '../master-data/fields.js';
import { PART_CATEGORIES } from '../master-data/parts.contract.js';
import {
  booleanFilter,
  defineList,
  downloadSchema,
  enumFilter,
  FILE_FORMATS,
  idFilter,
  listEndpoints,
  type FileColumn,
} from '../resource.js';
import type { Access } from '../access.js';

/**
 * Counted stock (DOMAIN.md 2.1, 2.2): accessories and repair parts on hand per location, changed
 * only by named actions that each write a move to the ledger (invariant 8).
 */

export const STOCK_ITEM_KINDS = ['accessory', 'part'] as const;
export type StockItemKind = (typeof STOCK_ITEM_KINDS)[number];

/** Why a quantity moved; every move of the ledger has one. */
export const STOCK_MOVE_REASONS = ['receipt', 'adjust', 'move', 'consume', 'count', 'rtv'] as const;
export type StockMoveReason = (typeof STOCK_MOVE_REASONS)[number];

/** Reading the accessory bins is the inventory boxes' right (DOMAIN.md 4.2). */
export const ACCESSORY_STOCK_VIEW_ACCESS = { permission: 'box.view-list' } as const;
/**
 * Receiving, adjusting and moving accessories is putting units into, out of and between boxes and
 * bins: the inventory boxes' scanning right, which the warehouse manager holds.
 */
export const ACCESSORY_STOCK_MANAGE_ACCESS = { permission: 'box.scan-device' } as const;
export const PART_STOCK_VIEW_ACCESS = { permission: 'part-stock.view-list' } as const;
/**
 * Receiving, adjusting and moving parts: the repair leader and the warehouse manager by default;
 * repair workers read the page only (their parts are issued at the bench).
 */
export const PART_STOCK_MANAGE_ACCESS = { permission: 'part-stock.manage' } as const;
export const ACCESSORY_DASHBOARD_ACCESS = { permission: 'accessory.dashboard' } as const;

/** A row chosen in a form; missing or wrong, the field says what to choose. */
const chosen = (what: string) =>
  z.number(`Choose ${what}.`).check(z.int(`Choose ${what}.`), z.gte(1, `Choose ${what}.`));

/** The most units one action moves. */
export const STOCK_QTY_MAX = 1_000_000;

const quantity = z
  .number('Enter the quantity.')
  .check(
    z.int('The quantity must be a whole number.'),
    z.gte(1, 'The quantity must be at least 1.'),
    z.lte(STOCK_QTY_MAX, `The quantity must be at most ${STOCK_QTY_MAX}.`),
  );

/** An adjustment's quantity: positive adds units found, negative takes units lost or damaged. */
const signedQuantity = z.number('Enter the quantity.').check(
  z.int('The quantity must be a whole number.'),
  z.gte(-STOCK_QTY_MAX, `The quantity must be at least -${STOCK_QTY_MAX}.`),
  z.lte(STOCK_QTY_MAX, `The quantity must be at most ${STOCK_QTY_MAX}.`),
  z.refine((qty) => qty !== 0, 'An adjustment changes the quantity: enter a number other than 0.'),
);

const stockLevelShape = {
  /** The stock level's id: one item at one location. */
  id: z.int(),
  location_id: z.int(),
  location: z.string(),
  on_hand: z.int(),
  reserved: z.int(),
  available: z.int(),
  last_counted_at: z.nullable(z.string()),
  last_moved_at: z.nullable(z.string()),
};

export const accessoryStockSchema = z.object({
  ...stockLevelShape,
  accessory_id: z.int(),
  sku: z.string(),
  name: z.string(),
  kind: z.enum(ACCESSORY_KINDS),
});
export type AccessoryStock = z.infer<typeof accessoryStockSchema>;

/** Accessories per SKU and bin (`/inventory-box/accessories`). */
export const accessoryStockList = defineList({
  name: 'accessory-stock',
  singular: 'accessory bin',
  plural: 'Accessory bins',
  tag: 'Stock',
  view: ACCESSORY_STOCK_VIEW_ACCESS,
  item: accessoryStockSchema,
  filters: {
    accessory_id: idFilter,
    location_id: idFilter,
    kind: enumFilter(ACCESSORY_KINDS),
    /** Bins with units on hand; false: emptied bins. */
    in_stock: booleanFilter,
  },
  sorts: ['sku', 'location', 'on_hand', 'last_moved_at'],
  defaultSort: 'sku',
  exportColumns: [
    { key: 'sku', header: 'SKU', example: 'CHG-USBC-20W' },
    { key: 'name', header: 'Name', example: 'USB-C charger 20 W' },
    { key: 'kind', header: 'Kind', example: 'charger' },
    { key: 'location', header: 'Location', example: 'A-01-01-A' },
    { key: 'on_hand', header: 'On hand', example: '40' },
    { key: 'reserved', header: 'Reserved', example: '5' },
    { key: 'available', header: 'Available', example: '35' },
    { key: 'last_counted_at', header: 'Last count', example: '' },
    { key: 'last_moved_at', header: 'Last move', example: '' },
  ],
});

/** One part with its stock over every location (`/parts`). */
export const partStockSchema = z.object({
  /** The part's id. */
  id: z.int(),
  part_number: z.string(),
  name: z.string(),
  category: z.enum(PART_CATEGORIES),
  compatible_model_ids: z.array(z.int()),
  compatible_models: z.array(z.string()),
  /** The average cost of a unit, in cents, updated by every receipt. */
  cost_cents: z.int(),
  on_hand: z.int(),
  reserved: z.int(),
  available: z.int(),
  used_30d: z.int(),
  reorder_point: z.int(),
  /** Available at or under the reorder point. */
  below_reorder: z.boolean(),
  /** Where it is: each bin with its quantity on hand ("A-01-01-A (4)"). */
  bins: z.array(z.object({ location_id: z.int(), location: z.string(), on_hand: z.int() })),
  /** The latest physical count of the part at any of its locations. */
  last_counted_at: z.nullable(z.string()),
});
export type PartStock = z.infer<typeof partStockSchema>;

export const partStockList = defineList({
  name: 'part-stock',
  singular: 'part',
  plural: 'Parts',
  tag: 'Stock',
  view: PART_STOCK_VIEW_ACCESS,
  item: partStockSchema,
  filters: {
    category: enumFilter(PART_CATEGORIES),
    /** Parts that fit this device model. */
    model_id: idFilter,
    /** Parts with units at this location. */
    location_id: idFilter,
    below_reorder: booleanFilter,
  },
  sorts: ['part_number', 'name', 'category'],
  defaultSort: 'part_number',
  exportColumns: [
    { key: 'part_number', header: 'Part number', example: 'LCD-MG23-BLK' },
    { key: 'name', header: 'Name', example: 'Moto G Play 2023 LCD assembly' },
    { key: 'category', header: 'Category', example: 'screen' },
    { key: 'compatible_models', header: 'Compatible models', example: 'Motorola Moto G Play' },
    { key: 'on_hand', header: 'On hand', example: '12' },
    { key: 'reserved', header: 'Reserved', example: '2' },
    { key: 'available', header: 'Available', example: '10' },
    { key: 'used_30d', header: 'Used in 30 days', example: '7' },
    { key: 'reorder_point', header: 'Reorder point', example: '5' },
    { key: 'below_reorder', header: 'Below reorder point', example: 'no' },
    { key: 'cost_cents', header: 'Average cost (cents)', example: '1250' },
    { key: 'last_counted_at', header: 'Last count', example: '' },
  ],
});

const reference = requiredText('reference', 100);
const note = optionalText('note', 500);

export const receiveAccessoriesSchema = z.object({
  accessory_id: chosen('an accessory'),
  location_id: chosen('a location'),
  qty: quantity,
  /** The delivery note or purchase order the units came with. */
  reference,
  note,
});
export type ReceiveAccessoriesInput = z.input<typeof receiveAccessoriesSchema>;

export const receivePartsSchema = z.object({
  part_id: chosen('a part'),
  location_id: chosen('a location'),
  vendor_id: chosen('a vendor'),
  qty: quantity,
  unit_cost_cents: z
    .number('Enter the unit cost.')
    .check(
      z.int('The unit cost must be a whole number of cents.'),
      z.gte(0, 'The unit cost cannot be negative.'),
      z.lte(100_000_000, 'The unit cost must be at most 1000000.00.'),
    ),
  reference,
  note,
});
export type ReceivePartsInput = z.input<typeof receivePartsSchema>;

const adjustShape = {
  location_id: chosen('a location'),
  qty: signedQuantity,
  /** Why the quantity is not what the books say: damaged, lost, found, miscounted. */
  reason: requiredText('reason', 500),
};
export const adjustAccessoriesSchema = z.object({
  accessory_id: chosen('an accessory'),
  ...adjustShape,
});
export type AdjustAccessoriesInput = z.input<typeof adjustAccessoriesSchema>;
export const adjustPartsSchema = z.object({ part_id: chosen('a part'), ...adjustShape });
export type AdjustPartsInput = z.input<typeof adjustPartsSchema>;

const moveShape = {
  from_location_id: chosen('the location to take the units from'),
  to_location_id: chosen('the location to put the units in'),
  qty: quantity,
  note,
};
export const moveAccessoriesSchema = z.object({
  accessory_id: chosen('an accessory'),
  ...moveShape,
});
export type MoveAccessoriesInput = z.input<typeof moveAccessoriesSchema>;
export const movePartsSchema = z.object({ part_id: chosen('a part'), ...moveShape });
export type MovePartsInput = z.input<typeof movePartsSchema>;

/** What a count found of one item at a location: 0 when there is none. */
const countedQuantity = z
  .number('Enter the quantity counted.')
  .check(
    z.int('The quantity counted must be a whole number.'),
    z.gte(0, 'The quantity counted cannot be negative: enter 0 when there is none.'),
    z.lte(STOCK_QTY_MAX, `The quantity counted must be at most ${STOCK_QTY_MAX}.`),
  );

/**
 * A physical count of one item at one location: the server writes the difference from the books
 * as a move with the reason 'count' (none when they agree) and notes when it was counted.
 */
const countShape = { location_id: chosen('a location'), counted_qty: countedQuantity, note };
export const countAccessoriesSchema = z.object({
  accessory_id: chosen('an accessory'),
  ...countShape,
});
export type CountAccessoriesInput = z.input<typeof countAccessoriesSchema>;
export const countPartsSchema = z.object({ part_id: chosen('a part'), ...countShape });
export type CountPartsInput = z.input<typeof countPartsSchema>;

/** The most items one count of a whole bin lists. */
export const MAX_BIN_COUNT_LINES = 200;

/** Each item of a bin count once, as its lines are keyed by it. */
const binCountLines = <Line extends z.ZodMiniObject>(line: Line, itemField: string) =>
  z.array(line).check(
    z.minLength(1, 'Count at least one item.'),
    z.maxLength(MAX_BIN_COUNT_LINES, `Count at most ${MAX_BIN_COUNT_LINES} items at a time.`),
    z.refine((lines: readonly Record<string, unknown>[]) => {
      const items = lines.map((counted) => counted[itemField]);
      return new Set(items).size === items.length;
    }, 'List each item once, with all its units.'),
  );

/** One item of a bin count and what was found of it. */
export const accessoryBinCountLineSchema = z.object({
  accessory_id: chosen('an accessory'),
  counted_qty: countedQuantity,
});
export const partBinCountLineSchema = z.object({
  part_id: chosen('a part'),
  counted_qty: countedQuantity,
});

/**
 * A count of a whole bin: every item the books have there with units, each with what was found
 * (0 for one that is gone), and any item found that the books did not have there.
 */
export const countAccessoryBinSchema = z.object({
  location_id: chosen('the bin counted'),
  lines: binCountLines(accessoryBinCountLineSchema, 'accessory_id'),
  note,
});
export type CountAccessoryBinInput = z.input<typeof countAccessoryBinSchema>;
export const countPartBinSchema = z.object({
  location_id: chosen('the bin counted'),
  lines: binCountLines(partBinCountLineSchema, 'part_id'),
  note,
});
export type CountPartBinInput = z.input<typeof countPartBinSchema>;

/** What a count found and did, per item: the books before, the count, the move it wrote. */
export const stockCountResultSchema = z.object({
  location_id: z.int(),
  location: z.string(),
  counted_at: z.string(),
  lines: z.array(
    z.object({
      item_id: z.int(),
      /** The SKU or part number. */
      item: z.string(),
      /** What the books had on hand before the count. */
      book_qty: z.int(),
      counted_qty: z.int(),
      /** Counted less books: the count move's units, up or down; 0 when they agreed. */
      difference: z.int(),
      move_id: z.nullable(z.int()),
      on_hand: z.int(),
      reserved: z.int(),
    }),
  ),
});
export type StockCountResult = z.infer<typeof stockCountResultSchema>;

/** The most bin labels one print asks for: a shelf's worth, a few seconds of work. */
export const MAX_BIN_LABEL_ROWS = 50;

const labelRows = (what: string) =>
  z
    .array(entityId(what))
    .check(
      z.minLength(1, `Choose at least one ${what}.`),
      z.maxLength(
        MAX_BIN_LABEL_ROWS,
        `Choose at most ${MAX_BIN_LABEL_ROWS} rows to print labels for at a time.`,
      ),
    );

/**
 * Bin labels (2x1): the SKU or part number and the name, with a Code128 barcode of the item and
 * one of the bin's code, so a picker scans both at the shelf.
 */
const binLabels = (name: string, rows: string) => {
  const printable = labelPrintable(name, ['2x1']);
  return { ...printable, options: z.extend(printable.options, { ids: labelRows(rows) }) };
};

/** One recorded move, as an action answers it with the level it left. */
export const stockMoveSchema = z.object({
  id: z.int(),
  item_kind: z.enum(STOCK_ITEM_KINDS),
  item_id: z.int(),
  qty: z.int(),
  from_location_id: z.nullable(z.int()),
  to_location_id: z.nullable(z.int()),
  reason: z.enum(STOCK_MOVE_REASONS),
  reference: z.nullable(z.string()),
  note: z.nullable(z.string()),
  at: z.string(),
});
export type StockMove = z.infer<typeof stockMoveSchema>;

/** What an action did: its move and the levels it changed, as they are now. */
export const stockActionResultSchema = z.object({
  move: stockMoveSchema,
  levels: z.array(
    z.object({ location_id: z.int(), location: z.string(), on_hand: z.int(), reserved: z.int() }),
  ),
});
export type StockActionResult = z.infer<typeof stockActionResultSchema>;

const action = <B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: Access & { readonly permission: string },
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Stock',
    guard,
    body,
    response: stockActionResultSchema,
    successStatus: 201,
  });

const count = <B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: Access & { readonly permission: string },
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Stock',
    guard,
    body,
    response: stockCountResultSchema,
    successStatus: 201,
  });

const picker = (path: string, what: string, guard: Access & { readonly permission: string }) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for a picker`,
    tag: 'Stock',
    guard,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const accessoryStockEndpoints = {
  ...listEndpoints(accessoryStockList),
  receive: action(
    '/accessory-stock/receipts',
    'Receive accessories into a location, with the reference they came with',
    ACCESSORY_STOCK_MANAGE_ACCESS,
    receiveAccessoriesSchema,
  ),
  adjust: action(
    '/accessory-stock/adjustments',
    'Adjust accessories at a location up or down, with the reason; never below what is reserved',
    ACCESSORY_STOCK_MANAGE_ACCESS,
    adjustAccessoriesSchema,
  ),
  move: action(
    '/accessory-stock/moves',
    'Move accessories from one location to another',
    ACCESSORY_STOCK_MANAGE_ACCESS,
    moveAccessoriesSchema,
  ),
  stockCount: count(
    '/accessory-stock/counts',
    "Record a physical count of an accessory at a location: the difference from the books is a 'count' move; never below what is reserved",
    ACCESSORY_STOCK_MANAGE_ACCESS,
    countAccessoriesSchema,
  ),
  binCount: count(
    '/accessory-stock/bin-counts',
    'Record a physical count of every accessory in a bin, in one transaction; an accessory found that the books did not have there is added',
    ACCESSORY_STOCK_MANAGE_ACCESS,
    countAccessoryBinSchema,
  ),
  labels: printEndpoint({
    path: '/accessory-stock/labels',
    summary: `A download link for the bin labels (2x1 inch, Code128 SKU and bin) of up to ${MAX_BIN_LABEL_ROWS} accessory bins, as PDF or ZPL`,
    tag: 'Stock',
    guard: ACCESSORY_STOCK_MANAGE_ACCESS,
    params: z.object({}),
    printable: binLabels('accessory-bin-labels', 'accessory bin'),
  }),
  itemOptions: picker(
    '/accessory-stock/accessory-options',
    'active accessories',
    ACCESSORY_STOCK_VIEW_ACCESS,
  ),
  locationOptions: picker(
    '/accessory-stock/location-options',
    'active locations that may hold stock',
    ACCESSORY_STOCK_VIEW_ACCESS,
  ),
};

export const partStockEndpoints = {
  ...listEndpoints(partStockList),
  receive: action(
    '/part-stock/receipts',
    "Receive parts from a vendor at a unit cost; the part's average cost follows",
    PART_STOCK_MANAGE_ACCESS,
    receivePartsSchema,
  ),
  adjust: action(
    '/part-stock/adjustments',
    'Adjust parts at a location up or down, with the reason; never below what is reserved',
    PART_STOCK_MANAGE_ACCESS,
    adjustPartsSchema,
  ),
  move: action(
    '/part-stock/moves',
    'Move parts from one location to another',
    PART_STOCK_MANAGE_ACCESS,
    movePartsSchema,
  ),
  stockCount: count(
    '/part-stock/counts',
    "Record a physical count of a part at a location: the difference from the books is a 'count' move; never below what is reserved",
    PART_STOCK_MANAGE_ACCESS,
    countPartsSchema,
  ),
  binCount: count(
    '/part-stock/bin-counts',
    'Record a physical count of every part in a bin, in one transaction; a part found that the books did not have there is added',
    PART_STOCK_MANAGE_ACCESS,
    countPartBinSchema,
  ),
  labels: printEndpoint({
    path: '/part-stock/labels',
    summary: `A download link for the bin labels (2x1 inch, Code128 part number and bin) of up to ${MAX_BIN_LABEL_ROWS} parts, one per bin holding it, as PDF or ZPL`,
    tag: 'Stock',
    guard: PART_STOCK_MANAGE_ACCESS,
    params: z.object({}),
    printable: binLabels('part-bin-labels', 'part'),
  }),
  itemOptions: picker('/part-stock/part-options', 'active parts', PART_STOCK_VIEW_ACCESS),
  locationOptions: picker(
    '/part-stock/location-options',
    'active locations that may hold stock',
    PART_STOCK_VIEW_ACCESS,
  ),
  vendorOptions: picker('/part-stock/vendor-options', 'active vendors', PART_STOCK_VIEW_ACCESS),
  modelOptions: picker('/part-stock/model-options', 'device models', PART_STOCK_VIEW_ACCESS),
};

/** One SKU on the accessory dashboard. */
export const accessoryCoverSchema = z.object({
  accessory_id: z.int(),
  sku: z.string(),
  name: z.string(),
  kind: z.enum(ACCESSORY_KINDS),
  on_hand: z.int(),
  reserved: z.int(),
  available: z.int(),
  used_30d: z.int(),
  /** Days the available units last at the last 30 days' pace; null when nothing was used. */
  days_of_cover: z.nullable(z.number()),
  reorder_point: z.int(),
  below_reorder: z.boolean(),
});
export type AccessoryCover = z.infer<typeof accessoryCoverSchema>;

/** Weeks on the dashboard's consumption chart. */
export const DASHBOARD_WEEKS = 12;

export const accessoryDashboardSchema = z.object({
  /** When the figures were read; usage counts whole days in UTC. */
  as_of: z.string(),
  skus: z.array(accessoryCoverSchema),
  /** Units consumed and received per week (Monday), oldest first. */
  weeks: z.array(z.object({ week: z.string(), consumed: z.int(), received: z.int() })),
  /** The SKUs consumed in the week asked for (`week`), most used first. */
  week_detail: z.nullable(
    z.object({
      week: z.string(),
      skus: z.array(
        z.object({ accessory_id: z.int(), sku: z.string(), name: z.string(), consumed: z.int() }),
      ),
    }),
  ),
});
export type AccessoryDashboard = z.infer<typeof accessoryDashboardSchema>;

export const accessoryDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/accessory-stock/dashboard',
  summary:
    'Accessories per SKU: on hand, reserved, available, 30-day usage, days of cover and reorder flag; weekly consumption',
  tag: 'Stock',
  guard: ACCESSORY_DASHBOARD_ACCESS,
  query: z.object({
    week: z.optional(
      z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the week as YYYY-MM-DD (a Monday).')),
    ),
  }),
  response: accessoryDashboardSchema,
});

/** The SKUs below their reorder point, as purchasing orders from it. */
export const REORDER_LIST_COLUMNS = [
  { key: 'sku', header: 'SKU', example: 'CHG-USBC-20W' },
  { key: 'name', header: 'Name', example: 'USB-C charger 20 W' },
  { key: 'kind', header: 'Kind', example: 'charger' },
  { key: 'on_hand', header: 'On hand', example: '4' },
  { key: 'reserved', header: 'Reserved', example: '1' },
  { key: 'available', header: 'Available', example: '3' },
  { key: 'used_30d', header: 'Used in 30 days', example: '30' },
  { key: 'days_of_cover', header: 'Days of cover', example: '3' },
  { key: 'reorder_point', header: 'Reorder point', example: '10' },
] as const satisfies readonly FileColumn[];

export const reorderListExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/accessory-stock/dashboard/reorder-list/exports',
  summary: 'A download link for the accessories at or below their reorder point, as CSV or XLSX',
  tag: 'Stock',
  guard: ACCESSORY_DASHBOARD_ACCESS,
  body: z.object({ format: z._default(z.enum(FILE_FORMATS), 'csv') }),
  response: downloadSchema,
  successStatus: 201,
});
