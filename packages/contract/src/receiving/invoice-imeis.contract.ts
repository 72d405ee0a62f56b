import * as z from 'zod/mini';
import { imeiSchema, meidSchema } from '../identifiers.js';
import { optionalText, requiredText, wholeNumber } from '../master-data/fields.js';
import {
  booleanFilter,
  defineList,
  enumFilter,
  idFilter,
  importEndpoints,
  listEndpoints,
  type ImportDefinition,
} from '../resource.js';
import { DEVICE_STATUSES } from './device-states.js';
import { DISCREPANCY_DECISIONS, pickerEndpoint } from './invoices.contract.js';
import { DEVICE_CONDITIONS, DEVICE_GRADES, isoDate } from './receiving-fields.js';

/** How one manifest IMEI stands (DOMAIN.md 4.13). */
export const MATCH_STATUSES = [
  'expected',
  'received',
  'missing',
  'unexpected',
  'duplicate',
] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export const INVOICE_IMEI_VIEW_ACCESS = { permission: 'invoice-imei.index' } as const;
/** Importing invoice files, with their history (DOMAIN.md 6.1). */
export const INVOICE_IMPORT_ACCESS = { permission: 'import_invoice.list' } as const;

export const invoiceImeiSchema = z.object({
  id: z.int(),
  invoice_id: z.int(),
  invoice_no: z.string(),
  vendor_id: z.int(),
  vendor: z.string(),
  line_id: z.nullable(z.int()),
  imei: z.nullable(z.string()),
  imei2: z.nullable(z.string()),
  meid: z.nullable(z.string()),
  serial: z.nullable(z.string()),
  identifier: z.string(),
  /** What the vendor claims. */
  model_id: z.nullable(z.int()),
  model: z.nullable(z.string()),
  /** What the TAC says; null for an unknown TAC or a MEID. */
  tac_model_id: z.nullable(z.int()),
  tac_model: z.nullable(z.string()),
  /** The TAC's model is not the vendor's. */
  model_mismatch: z.boolean(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  condition: z.nullable(z.enum(DEVICE_CONDITIONS)),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  unit_cost_cents: z.nullable(z.int()),
  match_status: z.enum(MATCH_STATUSES),
  /** A discrepancy needs a decision before the invoice closes. */
  discrepancy: z.boolean(),
  device_id: z.nullable(z.int()),
  device_status: z.nullable(z.enum(DEVICE_STATUSES)),
  /** The warehouse box the device was received into. */
  box: z.nullable(z.string()),
  decision: z.nullable(z.enum(DISCREPANCY_DECISIONS)),
  decision_note: z.nullable(z.string()),
  updated_at: z.string(),
});
export type InvoiceImei = z.infer<typeof invoiceImeiSchema>;

/** The invoice IMEI register: every manifest IMEI and every device received off-manifest. */
export const invoiceImeiList = defineList({
  name: 'invoice-imeis',
  singular: 'invoice IMEI',
  plural: 'Invoice IMEIs',
  tag: 'Receiving',
  view: INVOICE_IMEI_VIEW_ACCESS,
  item: invoiceImeiSchema,
  filters: {
    invoice_id: idFilter,
    vendor_id: idFilter,
    match_status: enumFilter(MATCH_STATUSES),
    /** Missing, unexpected, duplicate or model mismatch. */
    discrepancy: booleanFilter,
    /** Discrepancies still without a decision. */
    undecided: booleanFilter,
    model_mismatch: booleanFilter,
  },
  sorts: ['imei', 'updated_at'],
  defaultSort: 'imei',
  // The discrepancy report for vendor credit is this export under `discrepancy=true`.
  exportColumns: [
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'invoice_no', header: 'Invoice no', example: 'INV-1001' },
    { key: 'imei', header: 'IMEI', example: '352836110000008' },
    { key: 'imei2', header: 'IMEI2', example: '' },
    { key: 'meid', header: 'MEID', example: '' },
    { key: 'serial', header: 'Serial', example: '' },
    { key: 'match_status', header: 'Status', example: 'missing' },
    { key: 'model', header: 'Vendor model', example: 'Samsung Galaxy A15' },
    { key: 'tac_model', header: 'TAC model', example: 'Samsung Galaxy A14' },
    { key: 'model_mismatch', header: 'Model mismatch', example: 'yes' },
    { key: 'unit_cost_cents', header: 'Unit cost (cents)', example: '4500' },
    { key: 'box', header: 'Box', example: 'WB-000001' },
    { key: 'device_status', header: 'Device status', example: 'received' },
    { key: 'decision', header: 'Decision', example: 'vendor_credit' },
    { key: 'decision_note', header: 'Decision note', example: '' },
  ],
});

/**
 * The manifest import: each row one device of an invoice, with the invoice's header. A file may
 * hold several invoices; an invoice is created when its vendor has none of that number, and its
 * lines are the rows grouped by model, colour, capacity, condition, grade and cost.
 */
export const manifestImport = {
  name: 'invoice-imeis',
  singular: 'invoice IMEI',
  plural: 'Invoice IMEIs',
  tag: 'Receiving',
  manage: INVOICE_IMPORT_ACCESS,
  importColumns: [
    { key: 'vendor', header: 'Vendor', required: true, example: 'Acme Recyclers' },
    { key: 'invoice_no', header: 'Invoice no', required: true, example: 'INV-1001' },
    {
      key: 'invoice_date',
      header: 'Invoice date',
      example: '2026-11-02',
      hint: 'YYYY-MM-DD',
    },
    { key: 'currency', header: 'Currency', example: 'USD', hint: 'Three capital letters' },
    {
      key: 'imei',
      header: 'IMEI',
      example: '352836110000008',
      hint: '15 digits; leave empty for a MEID-only device',
    },
    { key: 'imei2', header: 'IMEI2', example: '', hint: 'The second IMEI of a dual-SIM phone' },
    { key: 'meid', header: 'MEID', example: '', hint: '14 hex characters' },
    { key: 'serial', header: 'Serial', example: '' },
    {
      key: 'model',
      header: 'Model',
      required: true,
      example: 'Motorola Moto G Play 2023',
      hint: 'Brand and model, the model alone, or one of its model numbers',
    },
    { key: 'color', header: 'Colour', example: 'Navy Blue', hint: 'A colour name or alias' },
    { key: 'capacity_gb', header: 'Capacity GB', kind: 'integer', example: '32' },
    {
      key: 'condition',
      header: 'Condition',
      example: 'used',
      hint: DEVICE_CONDITIONS.join(', '),
    },
    { key: 'grade', header: 'Grade', example: 'B', hint: DEVICE_GRADES.join(', ') },
    {
      key: 'unit_cost',
      header: 'Unit cost',
      kind: 'number',
      example: '45.00',
      hint: 'In the invoice currency, like 45.00',
    },
  ],
} as const satisfies ImportDefinition;

/** One row of a manifest file, before names are resolved. */
export const manifestRowSchema = z.object({
  vendor: requiredText('vendor', 200),
  invoice_no: requiredText('invoice number', 60),
  invoice_date: z._default(z.nullable(isoDate('invoice date')), null),
  currency: z._default(
    z.nullable(
      z
        .string()
        .check(z.regex(/^[A-Z]{3}$/, 'Write the currency as three capital letters, like USD.')),
    ),
    null,
  ),
  imei: z._default(z.nullable(imeiSchema), null),
  imei2: z._default(z.nullable(imeiSchema), null),
  meid: z._default(z.nullable(meidSchema), null),
  serial: z._default(optionalText('serial', 60), null),
  model: requiredText('model', 200),
  color: z._default(optionalText('colour', 60), null),
  capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
  condition: z._default(
    z.enum(DEVICE_CONDITIONS, `Write one of ${DEVICE_CONDITIONS.join(', ')}.`),
    'used',
  ),
  grade: z._default(
    z.nullable(z.enum(DEVICE_GRADES, `Write one of ${DEVICE_GRADES.join(', ')}.`)),
    null,
  ),
  unit_cost: z._default(
    z.nullable(
      z.number().check(
        z.gte(0, 'The unit cost cannot be negative.'),
        z.lte(1_000_000, 'The unit cost is too large.'),
        z.refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
          message: 'Write the unit cost with at most two decimals.',
        }),
      ),
    ),
    null,
  ),
});
export type ManifestRow = z.output<typeof manifestRowSchema>;

export const invoiceImeiEndpoints = {
  ...listEndpoints(invoiceImeiList),
  ...importEndpoints(manifestImport),
};

/** The register's filters by vendor and invoice, under the register's own guard. */
export const invoiceImeiVendorOptionsEndpoint = pickerEndpoint(
  '/invoice-imeis/vendor-options',
  'vendors',
  INVOICE_IMEI_VIEW_ACCESS,
);
export const invoiceImeiInvoiceOptionsEndpoint = pickerEndpoint(
  '/invoice-imeis/invoice-options',
  'invoices',
  INVOICE_IMEI_VIEW_ACCESS,
);
