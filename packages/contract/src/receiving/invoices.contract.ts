import * as z from 'zod/mini';
import type { Access } from '../access.js';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema, PICKER_LIMIT, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { entityId, optionalText, requiredText, wholeNumber } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, listEndpoints, writeEndpoints } from '../resource.js';
import { centsSchema, DEVICE_CONDITIONS, DEVICE_GRADES, isoDate } from './receiving-fields.js';

/** Purchase invoice states (DOMAIN.md 3.7); a discrepancy is a count, not a state. */
export const PURCHASE_INVOICE_STATUSES = [
  'expected',
  'receiving',
  'received',
  'reconciled',
  'closed',
] as const;
export type PurchaseInvoiceStatus = (typeof PURCHASE_INVOICE_STATUSES)[number];

export const INVOICE_VIEW_ACCESS = { permission: 'invoice.view-list' } as const;
export const INVOICE_MANAGE_ACCESS = { permission: 'invoice.manage' } as const;

/** The decisions that settle a discrepancy before the invoice closes. */
export const DISCREPANCY_DECISIONS = [
  'accepted',
  'vendor_credit',
  'return_to_vendor',
  'written_off',
] as const;
export type DiscrepancyDecision = (typeof DISCREPANCY_DECISIONS)[number];

/** How the manifest's IMEIs stand against what was received. */
export const reconciliationSchema = z.object({
  /** IMEIs on the vendor's manifest. */
  manifest: z.int(),
  expected: z.int(),
  received: z.int(),
  missing: z.int(),
  unexpected: z.int(),
  duplicate: z.int(),
  /** Received devices whose TAC says another model than the vendor claims. */
  mismatched: z.int(),
  /** Discrepancies (missing, unexpected, duplicate, mismatched) without a decision yet. */
  undecided: z.int(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const purchaseInvoiceSchema = z.object({
  id: z.int(),
  vendor_id: z.int(),
  vendor: z.string(),
  invoice_no: z.string(),
  invoice_date: z.nullable(z.string()),
  currency: z.string(),
  total_cents: z.nullable(z.int()),
  /** The lines' quantity times unit cost. */
  lines_total_cents: z.int(),
  /** The lines' quantities. */
  qty_ordered: z.int(),
  status: z.enum(PURCHASE_INVOICE_STATUSES),
  has_manifest: z.boolean(),
  counts: reconciliationSchema,
  notes: z.nullable(z.string()),
  reconciled_at: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PurchaseInvoice = z.infer<typeof purchaseInvoiceSchema>;

const lineFields = {
  model_id: entityId('model'),
  color_id: z._default(z.nullable(entityId('colour')), null),
  capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
  condition: z._default(z.enum(DEVICE_CONDITIONS, 'Choose the condition.'), 'used'),
  grade: z._default(z.nullable(z.enum(DEVICE_GRADES, 'Choose a grade.')), null),
  qty: wholeNumber('quantity', 1, 100_000),
  unit_cost_cents: z._default(centsSchema('unit cost'), 0),
};

/** A line as a form writes it; an existing line keeps its id. */
export const invoiceLineInputSchema = z.object({
  id: z.optional(entityId('line')),
  ...lineFields,
});
export type InvoiceLineInput = z.input<typeof invoiceLineInputSchema>;

const invoiceFields = {
  vendor_id: entityId('vendor'),
  invoice_no: requiredText('invoice number', 60),
  invoice_date: z._default(z.nullable(isoDate('invoice date')), null),
  currency: z._default(
    z
      .string()
      .check(z.regex(/^[A-Z]{3}$/, 'Write the currency as three capital letters, like USD.')),
    'USD',
  ),
  total_cents: z._default(z.nullable(centsSchema('invoice total')), null),
  notes: optionalText('notes', 2000),
  lines: z._default(
    z.array(invoiceLineInputSchema).check(z.maxLength(500, 'At most 500 lines.')),
    [],
  ),
};

export const createPurchaseInvoiceSchema = z.object(invoiceFields);
export type CreatePurchaseInvoiceInput = z.input<typeof createPurchaseInvoiceSchema>;

/** A field left out is kept; `lines`, when given, is the whole new list of lines. */
export const updatePurchaseInvoiceSchema = z.partial(
  z.object({ ...invoiceFields, lines: invoiceFields.lines }),
);
export type UpdatePurchaseInvoiceInput = z.input<typeof updatePurchaseInvoiceSchema>;

export const purchaseInvoiceList = defineList({
  name: 'purchase-invoices',
  singular: 'purchase invoice',
  plural: 'Purchase invoices',
  tag: 'Receiving',
  view: INVOICE_VIEW_ACCESS,
  item: purchaseInvoiceSchema,
  filters: {
    vendor_id: idFilter,
    status: enumFilter(PURCHASE_INVOICE_STATUSES),
  },
  sorts: ['created_at', 'invoice_no'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'invoice_no', header: 'Invoice no', example: 'INV-1001' },
    { key: 'invoice_date', header: 'Invoice date', example: '2026-11-02' },
    { key: 'currency', header: 'Currency', example: 'USD' },
    { key: 'total_cents', header: 'Total (cents)', example: '450000' },
    { key: 'lines_total_cents', header: 'Lines total (cents)', example: '450000' },
    { key: 'qty_ordered', header: 'Qty ordered', example: '100' },
    { key: 'status', header: 'Status', example: 'receiving' },
    { key: 'counts', header: 'Reconciliation', example: '' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});

/** The form writes of purchase invoices: create, update, delete. */
export const purchaseInvoiceForm = {
  name: purchaseInvoiceList.name,
  singular: purchaseInvoiceList.singular,
  tag: purchaseInvoiceList.tag,
  manage: INVOICE_MANAGE_ACCESS,
  item: purchaseInvoiceSchema,
  create: createPurchaseInvoiceSchema,
  update: updatePurchaseInvoiceSchema,
};

export const purchaseInvoiceEndpoints = {
  ...listEndpoints(purchaseInvoiceList),
  ...writeEndpoints(purchaseInvoiceForm),
};

/** An invoice's files: the vendor's PDF, photos of what arrived. */
export const purchaseInvoiceAttachments = defineAttachments({
  kind: 'purchase_invoice',
  path: '/purchase-invoices',
  singular: 'purchase invoice',
  tag: 'Receiving',
  view: INVOICE_VIEW_ACCESS,
  manage: INVOICE_MANAGE_ACCESS,
});
export const purchaseInvoiceAttachmentEndpoints = attachmentEndpoints(purchaseInvoiceAttachments);

export const invoiceLineSchema = z.object({
  id: z.int(),
  model_id: z.int(),
  model: z.string(),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  condition: z.enum(DEVICE_CONDITIONS),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  qty: z.int(),
  unit_cost_cents: z.int(),
  /** IMEIs of the manifest on this line, and devices received against it. */
  manifest_count: z.int(),
  received_count: z.int(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceBoxSummarySchema = z.object({
  id: z.int(),
  code: z.string(),
  status: z.string(),
  qty_scanned: z.int(),
  qty_expected: z.nullable(z.int()),
  staging_location: z.nullable(z.string()),
});

export const purchaseInvoiceDetailSchema = z.object({
  invoice: purchaseInvoiceSchema,
  lines: z.array(invoiceLineSchema),
  boxes: z.array(invoiceBoxSummarySchema),
});
export type PurchaseInvoiceDetail = z.infer<typeof purchaseInvoiceDetailSchema>;

export const purchaseInvoiceDetailEndpoint = defineEndpoint({
  method: 'GET',
  path: '/purchase-invoices/:id/detail',
  summary:
    'An invoice with its lines (ordered, on the manifest, received), boxes and reconciliation',
  tag: 'Receiving',
  guard: INVOICE_VIEW_ACCESS,
  params: idParamsSchema,
  response: purchaseInvoiceDetailSchema,
});

export const reconcileInvoiceEndpoint = defineEndpoint({
  method: 'POST',
  path: '/purchase-invoices/:id/reconcile',
  summary: 'Mark every manifest IMEI not received as missing; the invoice becomes reconciled',
  tag: 'Receiving',
  guard: INVOICE_MANAGE_ACCESS,
  params: idParamsSchema,
  response: purchaseInvoiceSchema,
});

export const decideDiscrepanciesBodySchema = z.object({
  /** Invoice IMEI rows of this invoice, each a discrepancy. */
  ids: z
    .array(entityId('IMEI'))
    .check(
      z.minLength(1, 'Choose at least one IMEI.'),
      z.maxLength(100_000, 'At most 100,000 IMEIs at once.'),
    ),
  decision: z.enum(DISCREPANCY_DECISIONS, 'Choose a decision.'),
  note: optionalText('note', 1000),
});
export type DecideDiscrepanciesInput = z.input<typeof decideDiscrepanciesBodySchema>;

export const decideDiscrepanciesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/purchase-invoices/:id/decisions',
  summary:
    'Settle discrepancies of an invoice: accepted, vendor credit, return to vendor or written off',
  tag: 'Receiving',
  guard: INVOICE_MANAGE_ACCESS,
  params: idParamsSchema,
  body: decideDiscrepanciesBodySchema,
  response: purchaseInvoiceSchema,
});

export const closeInvoiceEndpoint = defineEndpoint({
  method: 'POST',
  path: '/purchase-invoices/:id/close',
  summary:
    'Close a reconciled invoice once every discrepancy has a decision (409 says how many lack one)',
  tag: 'Receiving',
  guard: INVOICE_MANAGE_ACCESS,
  params: idParamsSchema,
  response: purchaseInvoiceSchema,
});

/**
 * A picker of one page: up to PICKER_LIMIT options matching a search, or the option of one id
 * (pickerQuerySchema), under that page's own guard, so that no one reads vendors or invoices that
 * their pages do not show.
 */
export const pickerEndpoint = (
  path: string,
  what: string,
  guard: Access & { readonly permission: string },
) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to ${PICKER_LIMIT} ${what}, for a picker`,
    tag: 'Receiving',
    guard,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const invoicePageVendorOptionsEndpoint = pickerEndpoint(
  '/purchase-invoices/vendor-options',
  'active vendors',
  INVOICE_VIEW_ACCESS,
);
export const invoiceModelOptionsEndpoint = pickerEndpoint(
  '/purchase-invoices/model-options',
  'active models',
  INVOICE_VIEW_ACCESS,
);
export const invoiceColorOptionsEndpoint = pickerEndpoint(
  '/purchase-invoices/color-options',
  'active colours',
  INVOICE_VIEW_ACCESS,
);
