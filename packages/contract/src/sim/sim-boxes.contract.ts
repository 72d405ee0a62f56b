import * as z from 'zod/mini';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { SIM_ACCESS } from '../guards.js';
import { luhnCheckDigit, parseIccid } from '../identifiers.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import {
  defineList,
  enumFilter,
  idFilter,
  importEndpoints,
  listEndpoints,
  type ImportDefinition,
} from '../resource.js';

/**
 * SIM boxes (DOMAIN.md 4.6 `/sim/box`): a carrier's box received by scanning the first and last
 * ICCID of a contiguous range or by importing an ICCID list (the toolkit's dry run), split into
 * packs of 10 or 50 with their labels, moved to a location. Migration 0044 (tables), 0045.
 */

export const SIM_FORMS = ['triple-cut', 'esim'] as const;
export type SimForm = (typeof SIM_FORMS)[number];

export const SIM_BOX_STATUSES = ['in_stock', 'split', 'depleted'] as const;
export type SimBoxStatus = (typeof SIM_BOX_STATUSES)[number];

/** The pack sizes a box splits into. */
export const SIM_PACK_SIZES = [10, 50] as const;
export type SimPackSize = (typeof SIM_PACK_SIZES)[number];

/** The most SIMs one box holds, by range or by file: every SIM is written in one transaction. */
export const SIM_BOX_MAX_QTY = 20_000;

/** How many SIMs a range holds, or why the two ICCIDs make no range. */
export type IccidRangeCount = { ok: true; count: number } | { ok: false; message: string };

/**
 * The SIMs from the first ICCID to the last, both with their check digits: the digits before the
 * check digit count up by one (each SIM has its own check digit). Both have the same length.
 */
export function iccidRangeCount(first: string, last: string): IccidRangeCount {
  if (first.length !== last.length) {
    return {
      ok: false,
      message: `The first ICCID has ${first.length} digits and the last ${last.length}: a box's ICCIDs all have the same length.`,
    };
  }
  const count = BigInt(last.slice(0, -1)) - BigInt(first.slice(0, -1)) + 1n;
  if (count < 1n) {
    return {
      ok: false,
      message: 'The last ICCID comes before the first: scan the first SIM first.',
    };
  }
  if (count > BigInt(SIM_BOX_MAX_QTY)) {
    return {
      ok: false,
      message: `This range holds ${count.toLocaleString('en-US')} SIMs: a box holds at most ${SIM_BOX_MAX_QTY.toLocaleString('en-US')}.`,
    };
  }
  return { ok: true, count: Number(count) };
}

/** The `count` ICCIDs from `first` on, each with its Luhn check digit. */
export function iccidsOfRange(first: string, count: number): string[] {
  const width = first.length - 1;
  const start = BigInt(first.slice(0, -1));
  return Array.from({ length: count }, (_, i) => {
    const payload = (start + BigInt(i)).toString().padStart(width, '0');
    return `${payload}${luhnCheckDigit(payload)}`;
  });
}

export const simBoxRowSchema = z.object({
  id: z.int(),
  code: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  issuer: z.nullable(z.string()),
  form: z.enum(SIM_FORMS),
  received_by_range: z.boolean(),
  iccid_first: z.string(),
  iccid_last: z.string(),
  qty: z.int(),
  /** SIMs of the box still in stock. */
  qty_available: z.int(),
  /** Packs split from it. */
  pack_count: z.int(),
  location_id: z.nullable(z.int()),
  location_code: z.nullable(z.string()),
  status: z.enum(SIM_BOX_STATUSES),
  received_at: z.string(),
  received_by_name: z.nullable(z.string()),
});
export type SimBoxRow = z.infer<typeof simBoxRowSchema>;

export const simBoxList = defineList({
  name: 'sim-boxes',
  singular: 'SIM box',
  plural: 'SIM boxes',
  tag: 'SIM',
  view: SIM_ACCESS,
  item: simBoxRowSchema,
  filters: {
    client_carrier_id: idFilter,
    status: enumFilter(SIM_BOX_STATUSES),
    location_id: idFilter,
  },
  sorts: ['received_at', 'code'],
  defaultSort: 'received_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'code', header: 'Box', example: 'SB-000001' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'issuer', header: 'Issuer', example: 'AT&T' },
    { key: 'form', header: 'Form', example: 'triple-cut' },
    { key: 'iccid_first', header: 'First ICCID', example: '8901410123456789012' },
    { key: 'iccid_last', header: 'Last ICCID', example: '8901410123456789517' },
    { key: 'qty', header: 'Qty', example: '500' },
    { key: 'qty_available', header: 'Available', example: '500' },
    { key: 'location_code', header: 'Location', example: 'A-01-02' },
    { key: 'received_at', header: 'Received', example: '' },
    { key: 'status', header: 'Status', example: 'in_stock' },
  ],
});
export const simBoxListEndpoints = listEndpoints(simBoxList);

const chosenId = (what: string) =>
  z
    .number(`Choose the ${what}.`)
    .check(z.int(`Choose the ${what}.`), z.gte(1, `Choose the ${what}.`));

/** A scanned ICCID with its check digit (the parse's message otherwise). */
const scannedIccid = (which: string) =>
  z.pipe(
    z.string(`Scan the ${which} ICCID.`),
    z.transform((raw: string, ctx) => {
      const parsed = parseIccid(raw);
      if (parsed.ok) return parsed.value.iccid;
      ctx.issues.push({ code: 'custom', message: parsed.message, input: raw });
      return z.NEVER;
    }),
  );

const qtySchema = z
  .int('Give the number of SIMs in the box.')
  .check(
    z.gte(1, 'A box holds at least 1 SIM.'),
    z.lte(SIM_BOX_MAX_QTY, `A box holds at most ${SIM_BOX_MAX_QTY.toLocaleString('en-US')} SIMs.`),
  );

/**
 * A box received by range: every ICCID from the first to the last (the digits before the check
 * digit counted up, each with its own check digit); their count must be the box's quantity.
 * Without a client carrier, the one the first ICCID's prefix names.
 */
export const receiveSimRangeSchema = z.object({
  client_carrier_id: z.optional(z.nullable(chosenId('client carrier'))),
  form: z._default(z.enum(SIM_FORMS, 'Choose triple-cut or eSIM.'), 'triple-cut'),
  qty: qtySchema,
  iccid_first: scannedIccid('first'),
  iccid_last: scannedIccid('last'),
  location_id: z.optional(z.nullable(chosenId('location'))),
  note: z.optional(z.nullable(z.string().check(z.maxLength(500, 'At most 500 characters.')))),
});
export type ReceiveSimRange = z.input<typeof receiveSimRangeSchema>;

export const receiveSimRangeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim-boxes',
  summary: 'Receive a SIM box by its first and last ICCID: every SIM of the range in stock',
  tag: 'SIM',
  guard: SIM_ACCESS,
  body: receiveSimRangeSchema,
  response: simBoxRowSchema,
  successStatus: 201,
});

/** What the configurable prefix table says of an ICCID: its issuer and client carrier. */
export const simPrefixAnswerSchema = z.object({
  prefix: z.nullable(z.string()),
  issuer: z.nullable(z.string()),
  client_carrier_id: z.nullable(z.int()),
  client_carrier: z.nullable(z.string()),
});
export type SimPrefixAnswer = z.infer<typeof simPrefixAnswerSchema>;

export const simPrefixEndpoint = defineEndpoint({
  method: 'GET',
  path: '/sim-boxes/prefix',
  summary: "The issuer and client carrier an ICCID's longest known prefix names",
  tag: 'SIM',
  guard: SIM_ACCESS,
  query: z.object({ iccid: scannedIccid('') }),
  response: simPrefixAnswerSchema,
});

/** What a whole ICCID file shares: the box it becomes. */
export const simListImportOptionsSchema = z.object({
  client_carrier_id: chosenId('client carrier'),
  form: z._default(z.enum(SIM_FORMS, 'Choose triple-cut or eSIM.'), 'triple-cut'),
  /** The file's ICCIDs lack their check digit: it is computed and appended. */
  without_check_digits: z._default(z.boolean(), false),
  location_id: z.optional(z.nullable(chosenId('location'))),
});
export type SimListImportOptions = z.input<typeof simListImportOptionsSchema>;

/** The box the file's right rows make. */
export const simListImportSummarySchema = z.object({
  qty: z.int(),
  iccid_first: z.nullable(z.string()),
  iccid_last: z.nullable(z.string()),
  issuers: z.array(z.object({ issuer: z.nullable(z.string()), qty: z.int() })),
});
export type SimListImportSummary = z.infer<typeof simListImportSummarySchema>;

/** One line of an ICCID list: the ICCID, with or without its check digit as the import says. */
export const simListRowSchema = z.object({
  iccid: z
    .string('Write the ICCID.')
    .check(z.minLength(1, 'Write the ICCID.'), z.maxLength(40, 'This is no ICCID.')),
});

export const simListImport = {
  name: 'sim-box-iccids',
  singular: 'ICCID list',
  plural: 'ICCID lists',
  tag: 'SIM',
  manage: SIM_ACCESS,
  maxRows: SIM_BOX_MAX_QTY,
  options: simListImportOptionsSchema,
  summary: simListImportSummarySchema,
  importColumns: [
    {
      key: 'iccid',
      header: 'iccid',
      required: true,
      example: '8901410123456789012',
      hint: '19 or 20 digits, or 18 or 19 without the check digit when the import says so',
    },
  ],
} as const satisfies ImportDefinition;

/** Template, upload, dry run (options: the box's carrier, form, check digits), commit. */
export const simListImportEndpoints = importEndpoints(simListImport);

/** A pack split from a box. */
export const simPackSchema = z.object({
  id: z.int(),
  code: z.string(),
  sim_box_id: z.int(),
  box_code: z.string(),
  size: z.int(),
  iccid_first: z.string(),
  iccid_last: z.string(),
  created_at: z.string(),
});
export type SimPack = z.infer<typeof simPackSchema>;

/** Split a box's in-stock SIMs not yet in a pack into packs of 10 or 50, in ICCID order. */
export const splitSimBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim-boxes/:id/split',
  summary: "Split a SIM box's unpacked in-stock SIMs into packs of 10 or 50, in ICCID order",
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  body: z.object({
    size: z.literal(SIM_PACK_SIZES, 'Choose packs of 10 or 50.'),
  }),
  response: z.object({ box: simBoxRowSchema, packs: z.array(simPackSchema) }),
});

/** A box's packs, in order. */
export const simBoxPacksEndpoint = defineEndpoint({
  method: 'GET',
  path: '/sim-boxes/:id/packs',
  summary: "A SIM box's packs with their ICCID ranges",
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  response: z.array(simPackSchema),
});

export const moveSimBoxEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/sim-boxes/:id/location',
  summary: 'Move a SIM box to a location',
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  body: z.object({ location_id: chosenId('location') }),
  response: simBoxRowSchema,
});

/** The box label: its code as a barcode, carrier, range and quantity. */
export const simBoxLabelEndpoint = printEndpoint({
  path: '/sim-boxes/:id/label',
  summary: 'A download link for the SIM box label (Code128 box code, carrier, range, qty)',
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('sim-box-label', ['4x6', '2x1']),
});

/** Every pack label of a box, one file. */
export const simBoxPackLabelsEndpoint = printEndpoint({
  path: '/sim-boxes/:id/pack-labels',
  summary: 'A download link for all the pack labels of a SIM box, one file',
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('sim-box-pack-labels', ['2x1', '4x6']),
});

/** One pack's label again. */
export const simPackLabelEndpoint = printEndpoint({
  path: '/sim-packs/:id/label',
  summary: 'A download link for a SIM pack label (Code128 pack code, carrier, range, size)',
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('sim-pack-label', ['2x1', '4x6']),
});

const simBoxPicker = (path: string, what: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for the SIM pages' pickers`,
    tag: 'SIM',
    guard: SIM_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const simBoxPickers = {
  carriers: simBoxPicker('/sim-boxes/carrier-options', 'client carriers'),
  locations: simBoxPicker('/sim-boxes/location-options', 'active locations'),
};
