import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, listEndpoints, writeEndpoints } from '../resource.js';
import { DEVICE_STATUSES, HOLD_REASONS } from './device-states.js';
import { pickerEndpoint } from './invoices.contract.js';
import { centsSchema } from './receiving-fields.js';

/** Return-to-vendor transfer states (DOMAIN.md 3.7 VendorTransfer). */
export const VENDOR_TRANSFER_STATUSES = [
  'draft',
  'packed',
  'shipped',
  'received_by_vendor',
  'credited',
  'cancelled',
] as const;
export type VendorTransferStatus = (typeof VENDOR_TRANSFER_STATUSES)[number];

export const VENDOR_TRANSFER_REASONS = [
  'blacklisted',
  'not_on_manifest',
  'wrong_model',
  'defective',
  'other',
] as const;
export type VendorTransferReason = (typeof VENDOR_TRANSFER_REASONS)[number];

/** The page is the vendor directory's; moving devices needs `transfer.manage` (DOMAIN.md 6.1). */
export const VENDOR_TRANSFER_VIEW_ACCESS = { permission: 'vendor.view-list' } as const;
export const VENDOR_TRANSFER_MANAGE_ACCESS = { permission: 'transfer.manage' } as const;

export const vendorTransferSchema = z.object({
  id: z.int(),
  code: z.string(),
  vendor_id: z.int(),
  vendor: z.string(),
  invoice_id: z.nullable(z.int()),
  invoice_no: z.nullable(z.string()),
  reason: z.enum(VENDOR_TRANSFER_REASONS),
  status: z.enum(VENDOR_TRANSFER_STATUSES),
  device_count: z.int(),
  /** The devices' unit costs: what the vendor should credit. */
  devices_cost_cents: z.int(),
  carrier: z.nullable(z.string()),
  tracking: z.nullable(z.string()),
  credit_cents: z.nullable(z.int()),
  notes: z.nullable(z.string()),
  shipped_at: z.nullable(z.string()),
  received_by_vendor_at: z.nullable(z.string()),
  credited_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type VendorTransfer = z.infer<typeof vendorTransferSchema>;

export const createVendorTransferSchema = z.object({
  vendor_id: entityId('vendor'),
  invoice_id: z._default(z.nullable(entityId('invoice')), null),
  reason: z.enum(VENDOR_TRANSFER_REASONS, 'Choose the reason.'),
  notes: optionalText('notes', 2000),
});
export type CreateVendorTransferInput = z.input<typeof createVendorTransferSchema>;

export const updateVendorTransferSchema = z.partial(
  z.object({
    reason: z.enum(VENDOR_TRANSFER_REASONS, 'Choose the reason.'),
    carrier: optionalText('carrier', 60),
    tracking: optionalText('tracking number', 100),
    notes: optionalText('notes', 2000),
  }),
);
export type UpdateVendorTransferInput = z.input<typeof updateVendorTransferSchema>;

export const vendorTransferList = defineList({
  name: 'vendor-transfers',
  singular: 'return to vendor',
  plural: 'Returns to vendor',
  tag: 'Receiving',
  view: VENDOR_TRANSFER_VIEW_ACCESS,
  item: vendorTransferSchema,
  filters: {
    status: enumFilter(VENDOR_TRANSFER_STATUSES),
    vendor_id: idFilter,
    reason: enumFilter(VENDOR_TRANSFER_REASONS),
  },
  sorts: ['created_at', 'code'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'code', header: 'Transfer', example: 'RTV-000001' },
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'invoice_no', header: 'Invoice', example: 'INV-1001' },
    { key: 'reason', header: 'Reason', example: 'blacklisted' },
    { key: 'status', header: 'Status', example: 'shipped' },
    { key: 'device_count', header: 'Devices', example: '3' },
    { key: 'devices_cost_cents', header: 'Devices cost (cents)', example: '13500' },
    { key: 'carrier', header: 'Carrier', example: 'UPS' },
    { key: 'tracking', header: 'Tracking', example: '' },
    { key: 'credit_cents', header: 'Credit (cents)', example: '13500' },
    { key: 'shipped_at', header: 'Shipped', example: '' },
    { key: 'credited_at', header: 'Credited', example: '' },
  ],
});

/** The form writes of returns to vendor: create, update, delete. */
export const vendorTransferForm = {
  name: vendorTransferList.name,
  singular: vendorTransferList.singular,
  tag: vendorTransferList.tag,
  manage: VENDOR_TRANSFER_MANAGE_ACCESS,
  item: vendorTransferSchema,
  create: createVendorTransferSchema,
  update: updateVendorTransferSchema,
};

export const vendorTransferEndpoints = {
  ...listEndpoints(vendorTransferList),
  ...writeEndpoints(vendorTransferForm),
};

export const transferDeviceSchema = z.object({
  device_id: z.int(),
  imei: z.nullable(z.string()),
  meid: z.nullable(z.string()),
  model: z.string(),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
  container: z.nullable(z.string()),
  unit_cost_cents: z.nullable(z.int()),
  added_at: z.string(),
});
export type TransferDevice = z.infer<typeof transferDeviceSchema>;

export const transferDevicesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/vendor-transfers/:id/devices',
  summary: 'The devices on a return to vendor',
  tag: 'Receiving',
  guard: VENDOR_TRANSFER_VIEW_ACCESS,
  params: idParamsSchema,
  response: z.array(transferDeviceSchema),
});

export const addTransferDevicesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/vendor-transfers/:id/devices',
  summary:
    'Add devices to a draft return by IMEI or MEID (scanned) or by id; each must be of its vendor and in stock',
  tag: 'Receiving',
  guard: VENDOR_TRANSFER_MANAGE_ACCESS,
  params: idParamsSchema,
  body: z.object({
    codes: z._default(
      z.array(z.string().check(z.maxLength(64))).check(z.maxLength(5000, 'At most 5,000 codes.')),
      [],
    ),
    device_ids: z._default(
      z.array(entityId('device')).check(z.maxLength(5000, 'At most 5,000 devices.')),
      [],
    ),
  }),
  response: vendorTransferSchema,
});

export const removeTransferDeviceEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/vendor-transfers/:id/devices/:deviceId',
  summary: 'Take a device off a draft return',
  tag: 'Receiving',
  guard: VENDOR_TRANSFER_MANAGE_ACCESS,
  params: z.extend(idParamsSchema, {
    deviceId: z.coerce
      .number()
      .check(z.int('The id must be a whole number.'), z.gte(1, 'Unknown id.')),
  }),
  response: vendorTransferSchema,
});

/** The steps of a return: pack, ship (the devices leave: status rtv), receipt, credit, cancel. */
export const TRANSFER_STEPS = ['pack', 'ship', 'confirm-receipt', 'credit', 'cancel'] as const;
export type TransferStep = (typeof TRANSFER_STEPS)[number];

export const transferStepEndpoint = defineEndpoint({
  method: 'POST',
  path: '/vendor-transfers/:id/:step',
  summary:
    'Move a return on: pack (draft), ship (packed; tracking required), confirm-receipt, credit (amount), cancel (before shipping)',
  tag: 'Receiving',
  guard: VENDOR_TRANSFER_MANAGE_ACCESS,
  params: z.extend(idParamsSchema, { step: z.enum(TRANSFER_STEPS, 'Unknown step.') }),
  body: z.object({
    carrier: optionalText('carrier', 60),
    tracking: optionalText('tracking number', 100),
    credit_cents: z.optional(centsSchema('credit')),
  }),
  response: vendorTransferSchema,
});

export const transferVendorOptionsEndpoint = pickerEndpoint(
  '/vendor-transfers/vendor-options',
  'vendors',
  VENDOR_TRANSFER_VIEW_ACCESS,
);
export const transferInvoiceOptionsEndpoint = pickerEndpoint(
  '/vendor-transfers/invoice-options',
  'invoices',
  VENDOR_TRANSFER_VIEW_ACCESS,
);
