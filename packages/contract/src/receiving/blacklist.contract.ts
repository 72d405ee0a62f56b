import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { imeiSchema } from '../identifiers.js';
import { idParamsSchema } from '../list.js';
import { optionalText, requiredText } from '../master-data/fields.js';
import {
  booleanFilter,
  defineList,
  enumFilter,
  importEndpoints,
  listEndpoints,
  type ImportDefinition,
} from '../resource.js';
import { DEVICE_STATUSES } from './device-states.js';
import { isoDate } from './receiving-fields.js';

export const BLACKLIST_SOURCES = ['gsma', 'carrier', 'internal', 'vendor', 'checker'] as const;
export type BlacklistSource = (typeof BLACKLIST_SOURCES)[number];
export const BLACKLIST_REASONS = ['lost', 'stolen', 'unpaid', 'fraud', 'dispute', 'other'] as const;
export type BlacklistReason = (typeof BLACKLIST_REASONS)[number];

export const BLACKLIST_ACCESS = { permission: 'device.black-list' } as const;

export const blacklistEntrySchema = z.object({
  id: z.int(),
  imei: z.string(),
  source: z.enum(BLACKLIST_SOURCES),
  reason: z.enum(BLACKLIST_REASONS),
  reference: z.nullable(z.string()),
  note: z.nullable(z.string()),
  flagged_at: z.string(),
  /** Still listed: the device, if we have it, is held. */
  open: z.boolean(),
  cleared_at: z.nullable(z.string()),
  cleared_by_name: z.nullable(z.string()),
  clear_evidence: z.nullable(z.string()),
  /** The device of this IMEI in our registry, if any. */
  device_id: z.nullable(z.int()),
  model: z.nullable(z.string()),
  device_status: z.nullable(z.enum(DEVICE_STATUSES)),
  container: z.nullable(z.string()),
  vendor_id: z.nullable(z.int()),
  vendor: z.nullable(z.string()),
  invoice_id: z.nullable(z.int()),
  invoice_no: z.nullable(z.string()),
  /** The live return-to-vendor transfer the device is on, if any. */
  transfer: z.nullable(z.string()),
});
export type BlacklistEntry = z.infer<typeof blacklistEntrySchema>;

/** A manual entry: the device, if we have it, is held at once. */
export const createBlacklistEntrySchema = z.object({
  imei: imeiSchema,
  source: z._default(z.enum(BLACKLIST_SOURCES, 'Choose the source.'), 'internal'),
  reason: z.enum(BLACKLIST_REASONS, 'Choose the reason.'),
  reference: optionalText('reference', 100),
  note: optionalText('note', 1000),
});
export type CreateBlacklistEntryInput = z.input<typeof createBlacklistEntrySchema>;

export const blacklistList = defineList({
  name: 'blacklist-entries',
  singular: 'blacklist entry',
  plural: 'Blacklist entries',
  tag: 'Blacklist',
  view: BLACKLIST_ACCESS,
  item: blacklistEntrySchema,
  filters: {
    open: booleanFilter,
    source: enumFilter(BLACKLIST_SOURCES),
    reason: enumFilter(BLACKLIST_REASONS),
    /** Only entries whose IMEI is a device of ours. */
    in_stock: booleanFilter,
  },
  sorts: ['flagged_at', 'imei'],
  defaultSort: 'flagged_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'imei', header: 'IMEI', example: '352836110000008' },
    { key: 'source', header: 'Source', example: 'gsma' },
    { key: 'reason', header: 'Reason', example: 'stolen' },
    { key: 'reference', header: 'Reference', example: '' },
    { key: 'flagged_at', header: 'Flagged', example: '' },
    { key: 'open', header: 'Listed', example: 'yes' },
    { key: 'cleared_at', header: 'Cleared', example: '' },
    { key: 'clear_evidence', header: 'Evidence', example: '' },
    { key: 'model', header: 'Model', example: '' },
    { key: 'device_status', header: 'Device status', example: 'hold' },
    { key: 'container', header: 'Box', example: '' },
    { key: 'vendor', header: 'Vendor', example: '' },
    { key: 'invoice_no', header: 'Invoice', example: '' },
  ],
});

/** Provider results (GSMA Device Check or a checker) or a plain list of blocked IMEIs. */
export const blacklistImport = {
  name: 'blacklist-entries',
  singular: 'blacklist entry',
  plural: 'Blacklist entries',
  tag: 'Blacklist',
  manage: BLACKLIST_ACCESS,
  importColumns: [
    { key: 'imei', header: 'IMEI', required: true, example: '352836110000008' },
    {
      key: 'result',
      header: 'Result',
      example: 'blocked',
      hint: 'blocked or clean; empty means blocked',
    },
    { key: 'source', header: 'Source', example: 'gsma', hint: BLACKLIST_SOURCES.join(', ') },
    { key: 'reason', header: 'Reason', example: 'stolen', hint: BLACKLIST_REASONS.join(', ') },
    { key: 'checked_at', header: 'Checked at', example: '2026-11-20', hint: 'YYYY-MM-DD' },
    { key: 'reference', header: 'Reference', example: 'GSMA-12345' },
  ],
} as const satisfies ImportDefinition;

export const blacklistRowSchema = z.object({
  imei: imeiSchema,
  result: z._default(z.enum(['blocked', 'clean'], 'Write blocked or clean.'), 'blocked'),
  source: z._default(
    z.enum(BLACKLIST_SOURCES, `Write one of ${BLACKLIST_SOURCES.join(', ')}.`),
    'checker',
  ),
  reason: z._default(
    z.enum(BLACKLIST_REASONS, `Write one of ${BLACKLIST_REASONS.join(', ')}.`),
    'other',
  ),
  checked_at: z._default(z.nullable(isoDate('check date')), null),
  reference: z._default(optionalText('reference', 100), null),
});

export const blacklistEndpoints = {
  ...listEndpoints(blacklistList),
  ...importEndpoints(blacklistImport),
  create: defineEndpoint({
    method: 'POST',
    path: '/blacklist-entries',
    summary: 'List an IMEI as blocked; the device, if we have it, is held at once',
    tag: 'Blacklist',
    guard: BLACKLIST_ACCESS,
    body: createBlacklistEntrySchema,
    response: blacklistEntrySchema,
    successStatus: 201,
  }),
};

export const clearBlacklistEntryEndpoint = defineEndpoint({
  method: 'POST',
  path: '/blacklist-entries/:id/clear',
  summary:
    'Clear a listing with evidence; the device goes back to the status it had before the hold',
  tag: 'Blacklist',
  guard: BLACKLIST_ACCESS,
  params: idParamsSchema,
  body: z.object({
    evidence: requiredText('evidence (a provider result, a carrier letter)', 1000),
  }),
  response: blacklistEntrySchema,
});
