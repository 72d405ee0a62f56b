import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText, wholeNumber } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, listEndpoints, writeEndpoints } from '../resource.js';
import { pickerEndpoint } from './invoices.contract.js';
import { isoDate } from './receiving-fields.js';

export const INBOUND_SHIPMENT_STATUSES = ['expected', 'arrived', 'received'] as const;
export type InboundShipmentStatus = (typeof INBOUND_SHIPMENT_STATUSES)[number];

export const INBOUND_SHIPMENT_VIEW_ACCESS = { permission: 'invoice-shipment.view-list' } as const;
export const INBOUND_SHIPMENT_MANAGE_ACCESS = { permission: 'invoice-shipment.manage' } as const;

export const inboundShipmentSchema = z.object({
  id: z.int(),
  vendor_id: z.int(),
  vendor: z.string(),
  invoice_id: z.nullable(z.int()),
  invoice_no: z.nullable(z.string()),
  carrier: z.nullable(z.string()),
  tracking: z.nullable(z.string()),
  pallets_expected: z.nullable(z.int()),
  boxes_expected: z.nullable(z.int()),
  eta: z.nullable(z.string()),
  status: z.enum(INBOUND_SHIPMENT_STATUSES),
  arrived_at: z.nullable(z.string()),
  checked_in_by_name: z.nullable(z.string()),
  pallets_received: z.nullable(z.int()),
  boxes_received: z.nullable(z.int()),
  /** Warehouse boxes opened for this shipment's cartons. */
  warehouse_boxes: z.int(),
  damaged: z.boolean(),
  damage_notes: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  received_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type InboundShipment = z.infer<typeof inboundShipmentSchema>;

const count = (what: string) => z._default(z.nullable(wholeNumber(what, 0, 100_000)), null);

const shipmentFields = {
  vendor_id: entityId('vendor'),
  invoice_id: z._default(z.nullable(entityId('invoice')), null),
  carrier: optionalText('carrier', 60),
  tracking: optionalText('tracking number', 100),
  pallets_expected: count('number of pallets'),
  boxes_expected: count('number of boxes'),
  eta: z._default(z.nullable(isoDate('expected arrival')), null),
  notes: optionalText('notes', 2000),
};

export const createInboundShipmentSchema = z.object(shipmentFields);
export type CreateInboundShipmentInput = z.input<typeof createInboundShipmentSchema>;
export const updateInboundShipmentSchema = z.partial(z.object(shipmentFields));
export type UpdateInboundShipmentInput = z.input<typeof updateInboundShipmentSchema>;

export const inboundShipmentList = defineList({
  name: 'inbound-shipments',
  singular: 'inbound shipment',
  plural: 'Inbound shipments',
  tag: 'Receiving',
  view: INBOUND_SHIPMENT_VIEW_ACCESS,
  item: inboundShipmentSchema,
  filters: {
    status: enumFilter(INBOUND_SHIPMENT_STATUSES),
    vendor_id: idFilter,
    invoice_id: idFilter,
  },
  sorts: ['eta', 'created_at'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'invoice_no', header: 'Invoice no', example: 'INV-1001' },
    { key: 'carrier', header: 'Carrier', example: 'FedEx Freight' },
    { key: 'tracking', header: 'Tracking', example: '' },
    { key: 'pallets_expected', header: 'Pallets expected', example: '2' },
    { key: 'boxes_expected', header: 'Boxes expected', example: '12' },
    { key: 'eta', header: 'ETA', example: '2026-11-05' },
    { key: 'status', header: 'Status', example: 'arrived' },
    { key: 'arrived_at', header: 'Arrived', example: '' },
    { key: 'pallets_received', header: 'Pallets received', example: '2' },
    { key: 'boxes_received', header: 'Boxes received', example: '12' },
    { key: 'damaged', header: 'Damaged', example: 'no' },
    { key: 'damage_notes', header: 'Damage notes', example: '' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});

/** The form writes of inbound shipments: create, update, delete. */
export const inboundShipmentForm = {
  name: inboundShipmentList.name,
  singular: inboundShipmentList.singular,
  tag: inboundShipmentList.tag,
  manage: INBOUND_SHIPMENT_MANAGE_ACCESS,
  item: inboundShipmentSchema,
  create: createInboundShipmentSchema,
  update: updateInboundShipmentSchema,
};

export const inboundShipmentEndpoints = {
  ...listEndpoints(inboundShipmentList),
  ...writeEndpoints(inboundShipmentForm),
};

export const checkInBodySchema = z.object({
  pallets_received: count('number of pallets'),
  boxes_received: count('number of boxes'),
  damaged: z._default(z.boolean(), false),
  damage_notes: optionalText('damage notes', 2000),
});
export type CheckInInput = z.input<typeof checkInBodySchema>;

export const checkInShipmentEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inbound-shipments/:id/check-in',
  summary: 'Check a shipment in at the dock: what arrived and any damage; its invoice is receiving',
  tag: 'Receiving',
  guard: INBOUND_SHIPMENT_MANAGE_ACCESS,
  params: idParamsSchema,
  body: checkInBodySchema,
  response: inboundShipmentSchema,
});

export const completeShipmentEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inbound-shipments/:id/receive',
  summary: 'Mark an arrived shipment received: every carton is unloaded into warehouse boxes',
  tag: 'Receiving',
  guard: INBOUND_SHIPMENT_MANAGE_ACCESS,
  params: idParamsSchema,
  response: inboundShipmentSchema,
});

export const shipmentVendorOptionsEndpoint = pickerEndpoint(
  '/inbound-shipments/vendor-options',
  'active vendors',
  INBOUND_SHIPMENT_VIEW_ACCESS,
);
export const shipmentInvoiceOptionsEndpoint = pickerEndpoint(
  '/inbound-shipments/invoice-options',
  'invoices not closed',
  INBOUND_SHIPMENT_VIEW_ACCESS,
);
