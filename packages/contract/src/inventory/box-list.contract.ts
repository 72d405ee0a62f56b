import * as z from 'zod/mini';
import { BOX_LIST_ACCESS, BOX_SCAN_ACCESS } from '../guards.js';
import { labelPrintable, printEndpoint } from '../documents.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { defineEndpoint } from '../endpoint.js';
import { DEVICE_STATUSES, HOLD_REASONS } from '../receiving/device-states.js';
import { DEVICE_GRADES } from '../receiving/receiving-fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { inventoryBoxCountSchema } from './box-scans.contract.js';
import { INVENTORY_BOX_STATUSES, inventoryBoxShape } from './inventory-boxes.contract.js';

/**
 * The device boxes' list (DOMAIN.md 4.2, /inventory-box/device): every inventory box with what it
 * holds, where it is and how old it is; each box's IMEIs; exports at box and IMEI level; the box
 * label; and a count that locks a box until the scan station's verify mode finishes it.
 */

/** How old a box is at least, in whole days since it was sealed (opened, while open). */
export const minAgeFilter = z.optional(
  z.coerce
    .number('Give the age in days.')
    .check(
      z.int('Give the age in whole days.'),
      z.gte(0, 'The age cannot be negative.'),
      z.lte(36_500, 'The age is too large.'),
    ),
);

/** The filters of the box list, which the IMEI list takes too (an export of their IMEIs). */
const boxFilters = {
  model_id: idFilter,
  color_id: idFilter,
  grade: enumFilter(DEVICE_GRADES),
  status: enumFilter(INVENTORY_BOX_STATUSES),
  /** Boxes put away in this zone. */
  zone_id: idFilter,
  min_age_days: minAgeFilter,
};

export const inventoryBoxRowSchema = z.object({
  ...inventoryBoxShape,
  /** Whole days since it was sealed (opened, while it is open). */
  age_days: z.int(),
  /** The count that locks it, while one runs. */
  count_id: z.nullable(z.int()),
});
export type InventoryBoxRow = z.infer<typeof inventoryBoxRowSchema>;

export const inventoryBoxList = defineList({
  name: 'inventory-boxes',
  singular: 'device box',
  plural: 'Device boxes',
  tag: 'Inventory',
  view: BOX_LIST_ACCESS,
  item: inventoryBoxRowSchema,
  filters: boxFilters,
  sorts: ['code', 'sealed_at'],
  defaultSort: 'code',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'code', header: 'Box', example: 'IB-000123' },
    { key: 'model', header: 'Model', example: 'Motorola Moto G Play 2023' },
    { key: 'color', header: 'Colour', example: 'Black' },
    { key: 'capacity_gb', header: 'Capacity (GB)', example: '32' },
    { key: 'grade', header: 'Grade', example: 'A' },
    { key: 'carrier_lock', header: 'Lock', example: 'unlocked' },
    { key: 'qty', header: 'Qty', example: '18' },
    { key: 'max_qty', header: 'Max', example: '20' },
    { key: 'status', header: 'Status', example: 'located' },
    { key: 'location_code', header: 'Location', example: 'A-01-02-B' },
    { key: 'sealed_at', header: 'Sealed', example: '' },
    { key: 'age_days', header: 'Age (days)', example: '12' },
  ],
});

export const inventoryBoxListEndpoints = listEndpoints(inventoryBoxList);

/** A device in an inventory box, as the box's IMEI list and the scan station show it. */
export const boxedDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  imei2: z.nullable(z.string()),
  box_id: z.int(),
  box_code: z.string(),
  model: z.string(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.string()),
  carrier_lock: z.nullable(z.string()),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
  location_code: z.nullable(z.string()),
});
export type BoxedDevice = z.infer<typeof boxedDeviceSchema>;

/** The devices in inventory boxes: one box's (a row expanded), or the boxes' that match. */
export const boxedDeviceList = defineList({
  name: 'inventory-box-devices',
  singular: 'boxed device',
  plural: 'Boxed devices',
  tag: 'Inventory',
  view: BOX_LIST_ACCESS,
  item: boxedDeviceSchema,
  filters: { box_id: idFilter, ...boxFilters },
  sorts: ['imei'],
  defaultSort: 'imei',
  exportColumns: [
    { key: 'box_code', header: 'Box', example: 'IB-000123' },
    { key: 'identifier', header: 'IMEI', example: '356938035643809' },
    { key: 'imei2', header: 'IMEI 2', example: '' },
    { key: 'model', header: 'Model', example: 'Motorola Moto G Play 2023' },
    { key: 'color', header: 'Colour', example: 'Black' },
    { key: 'capacity_gb', header: 'Capacity (GB)', example: '32' },
    { key: 'grade', header: 'Grade', example: 'A' },
    { key: 'carrier_lock', header: 'Lock', example: 'unlocked' },
    { key: 'status', header: 'Status', example: 'in_stock' },
    { key: 'hold_reason', header: 'Hold reason', example: '' },
    { key: 'location_code', header: 'Location', example: 'A-01-02-B' },
  ],
});

export const boxedDeviceListEndpoints = listEndpoints(boxedDeviceList);

const boxPicker = (path: string, what: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for a filter of the device boxes`,
    tag: 'Inventory',
    guard: BOX_LIST_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const inventoryBoxPickers = {
  models: boxPicker('/inventory-boxes/model-options', 'models'),
  colors: boxPicker('/inventory-boxes/color-options', 'colours'),
  zones: boxPicker('/inventory-boxes/zone-options', 'zones'),
};

/** The IB label printed again from the list, for whoever reads the list. */
export const inventoryBoxReprintEndpoint = printEndpoint({
  path: '/inventory-boxes/:id/reprint',
  summary: 'A download link for the inventory box label again (Code128 box code), as PDF or ZPL',
  tag: 'Inventory',
  guard: BOX_LIST_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('inventory-box-reprint', ['4x6', '2x1']),
});

/**
 * Start a count: the box is locked (no device goes in or out but the verify scans of its count)
 * until the scan station's verify mode finishes it. A sealed, located or partly picked box.
 */
export const startBoxCountEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inventory-boxes/:id/counts',
  summary: 'Start a count of an inventory box: the box is locked until the count is finished',
  tag: 'Inventory',
  // Who counts a box: whoever verifies it at the scan station.
  guard: BOX_SCAN_ACCESS,
  params: idParamsSchema,
  response: inventoryBoxCountSchema,
  successStatus: 201,
});
