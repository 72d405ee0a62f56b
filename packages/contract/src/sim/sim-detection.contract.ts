import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SIM_DETECTION_ACCESS } from '../guards.js';
import { idNumber, idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { entityId, requiredText } from '../master-data/fields.js';
import { downloadSchema, FILE_FORMATS, type FileColumn } from '../resource.js';

/**
 * SIM detection against the carrier's system (DOMAIN.md 4.6 `/sim/detection`): a carrier's
 * activation export, uploaded as CSV with a column mapping kept per client carrier or pulled
 * through the carrier's adapter, is read into a run's rows and applied to the SIMs set-based in
 * the background; the page follows the run's progress, reads its rows, re-runs it, exports its
 * differences and resolves the anomalies it found.
 */

/** The largest export one upload takes: a million rows of a carrier's export with room to spare. */
export const SIM_DETECTION_MAX_BYTES = 200 * 1024 * 1024;
/** The most ICCIDs one pull asks the carrier about (a list or a range). */
export const SIM_DETECTION_PULL_MAX = 10_000;

export const SIM_DETECTION_SOURCES = ['file', 'api'] as const;
export const SIM_DETECTION_RUN_STATUSES = ['loading', 'applying', 'done', 'failed'] as const;
export type SimDetectionRunStatus = (typeof SIM_DETECTION_RUN_STATUSES)[number];

/** What applying a row did: the differences are every outcome but `unchanged` and `invalid`. */
export const SIM_DETECTION_OUTCOMES = [
  'newly_active',
  'changed',
  'unchanged',
  'unknown',
  'anomaly',
  'invalid',
] as const;
export type SimDetectionOutcome = (typeof SIM_DETECTION_OUTCOMES)[number];
export const SIM_DETECTION_DIFFERENCES = [
  'newly_active',
  'changed',
  'unknown',
  'anomaly',
] as const satisfies SimDetectionOutcome[];

/** The line states a detection reads; `not_found`: the carrier does not know the ICCID. */
export const SIM_DETECT_STATES = ['active', 'inactive', 'suspended', 'not_found'] as const;
export type SimDetectState = (typeof SIM_DETECT_STATES)[number];

export const SIM_ANOMALY_KINDS = ['active_in_stock', 'imei_mismatch'] as const;
export const SIM_ANOMALY_STATUSES = ['open', 'resolved'] as const;

/** The fields of a carrier export the mapping names a column for; ICCID and state are needed. */
export const SIM_DETECTION_FIELDS = ['iccid', 'state', 'mdn', 'activation_date', 'imei'] as const;
export type SimDetectionField = (typeof SIM_DETECTION_FIELDS)[number];

const headerName = (what: string) =>
  z.optional(
    z.nullable(
      z.pipe(
        z.string().check(z.trim(), z.maxLength(120, `The ${what} column's name is too long.`)),
        z.transform((text) => (text === '' ? null : text)),
      ),
    ),
  );

export const simDetectionColumnsSchema = z.object({
  iccid: requiredText('ICCID column', 120),
  state: requiredText('state column', 120),
  mdn: headerName('MDN'),
  activation_date: headerName('activation date'),
  imei: headerName('IMEI'),
});
export type SimDetectionColumns = z.output<typeof simDetectionColumnsSchema>;

export const simDetectionMappingSchema = z.object({
  client_carrier_id: z.int(),
  /** The carrier's kept mapping; null before its first upload. */
  columns: z.nullable(
    z.object({
      iccid: z.string(),
      state: z.string(),
      mdn: z.nullable(z.string()),
      activation_date: z.nullable(z.string()),
      imei: z.nullable(z.string()),
    }),
  ),
  updated_at: z.nullable(z.string()),
});
export type SimDetectionMapping = z.infer<typeof simDetectionMappingSchema>;

/** The words carriers' exports use for each field's column, in order of preference. */
const HEADER_WORDS: Record<SimDetectionField, readonly string[]> = {
  iccid: ['iccid', 'sim', 'sim number', 'sim id', 'icc id'],
  state: ['state', 'status', 'line status', 'sim status', 'subscriber status'],
  mdn: ['mdn', 'msisdn', 'phone', 'phone number', 'mobile number', 'telephone number'],
  activation_date: ['activation date', 'activated', 'activated at', 'activation', 'activated on'],
  imei: ['imei', 'imei seen', 'device imei', 'handset imei', 'device'],
};

const plainHeader = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The mapping the page proposes for an export's header row: the kept mapping where its columns are
 * all in the header, else each field's column by the words carriers use (exact, then contained).
 */
export function proposeDetectionMapping(
  headers: readonly string[],
  kept: SimDetectionMapping['columns'] = null,
): Record<SimDetectionField, string | null> {
  if (kept && [kept.iccid, kept.state].every((column) => headers.includes(column))) {
    const present = (column: string | null) =>
      column !== null && headers.includes(column) ? column : null;
    return {
      iccid: kept.iccid,
      state: kept.state,
      mdn: present(kept.mdn),
      activation_date: present(kept.activation_date),
      imei: present(kept.imei),
    };
  }
  const taken = new Set<string>();
  const find = (field: SimDetectionField) => {
    const words = HEADER_WORDS[field];
    const free = headers.filter((header) => !taken.has(header));
    const found =
      words.map((word) => free.find((header) => plainHeader(header) === word)).find(Boolean) ??
      words
        .map((word) => free.find((header) => plainHeader(header).includes(word)))
        .find(Boolean) ??
      null;
    if (found) taken.add(found);
    return found;
  };
  // The state first, so that a "SIM status" column is not taken for the ICCID's "sim".
  const state = find('state');
  return {
    iccid: find('iccid'),
    state,
    mdn: find('mdn'),
    activation_date: find('activation_date'),
    imei: find('imei'),
  };
}

export const simDetectionRunSchema = z.object({
  id: z.int(),
  source: z.enum(SIM_DETECTION_SOURCES),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  file_name: z.nullable(z.string()),
  status: z.enum(SIM_DETECTION_RUN_STATUSES),
  rerun_of: z.nullable(z.int()),
  rows_total: z.int(),
  rows_loaded: z.int(),
  matched: z.int(),
  newly_active: z.int(),
  unknown: z.int(),
  anomalies: z.int(),
  error: z.nullable(z.string()),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  run_by: z.nullable(z.string()),
});
export type SimDetectionRun = z.infer<typeof simDetectionRunSchema>;

export const simDetectionRowSchema = z.object({
  line: z.int(),
  iccid: z.string(),
  state: z.string(),
  mdn: z.nullable(z.string()),
  activation_date: z.nullable(z.string()),
  imei_seen: z.nullable(z.string()),
  sim_id: z.nullable(z.int()),
  outcome: z.nullable(z.enum(SIM_DETECTION_OUTCOMES)),
  /** Why the row was not applied (an invalid ICCID, a state the export should not have). */
  problem: z.nullable(z.string()),
});
export type SimDetectionRow = z.infer<typeof simDetectionRowSchema>;

export const simAnomalySchema = z.object({
  id: z.int(),
  sim_id: z.int(),
  iccid: z.string(),
  sim_status: z.string(),
  run_id: z.int(),
  kind: z.enum(SIM_ANOMALY_KINDS),
  detail: z.nullable(z.string()),
  ota_order: z.boolean(),
  status: z.enum(SIM_ANOMALY_STATUSES),
  resolution: z.nullable(z.string()),
  resolved_at: z.nullable(z.string()),
  resolved_by: z.nullable(z.string()),
  created_at: z.string(),
});
export type SimAnomaly = z.infer<typeof simAnomalySchema>;

/** A page of a newest-first list: `next` is the `before` of the following page. */
const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ rows: z.array(item), next: z.nullable(z.int()) });

const pageLimit = z._default(
  z.coerce
    .number()
    .check(z.int('The limit must be a whole number.'), z.gte(1), z.lte(200, 'At most 200.')),
  50,
);

/** The run's differences as the export writes them. */
export const SIM_DETECTION_DIFFERENCE_COLUMNS = [
  { key: 'line', header: 'Line', example: '2' },
  { key: 'iccid', header: 'ICCID', example: '8901260123456789012' },
  { key: 'state', header: 'State', example: 'active' },
  { key: 'mdn', header: 'MDN', example: '2145550100' },
  { key: 'activation_date', header: 'Activation date', example: '2026-11-02' },
  { key: 'imei_seen', header: 'IMEI seen', example: '356938035643809' },
  { key: 'outcome', header: 'Outcome', example: 'newly_active' },
] as const satisfies readonly FileColumn[];

const iccidText = z.string().check(z.trim(), z.maxLength(40, 'An ICCID has at most 20 digits.'));

export const simDetectionPullSchema = z.object({
  client_carrier_id: entityId('client carrier'),
  /** ICCIDs to ask about, one per entry; or a range by its first and last ICCID. */
  iccids: z.optional(
    z
      .array(iccidText)
      .check(z.maxLength(SIM_DETECTION_PULL_MAX, `At most ${SIM_DETECTION_PULL_MAX} ICCIDs.`)),
  ),
  first: z.optional(iccidText),
  last: z.optional(iccidText),
});
export type SimDetectionPull = z.infer<typeof simDetectionPullSchema>;

const TAG = 'SIM detection';

export const simDetectionEndpoints = {
  runs: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/runs',
    summary: 'Detection runs, newest first, a page at a time (before: the next page’s id)',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    query: z.object({ before: z.optional(idNumber), limit: pageLimit }),
    response: pageOf(simDetectionRunSchema),
  }),
  run: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/runs/:id',
    summary: 'One detection run with its totals and progress',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    response: simDetectionRunSchema,
  }),
  rows: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/runs/:id/rows',
    summary: 'A run’s rows by line, filtered by outcome (before: the next page’s line)',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    query: z.object({
      outcome: z.optional(z.enum([...SIM_DETECTION_OUTCOMES, 'differences'])),
      before: z.optional(idNumber),
      limit: pageLimit,
    }),
    response: pageOf(simDetectionRowSchema),
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: '/sim/detection/runs',
    summary:
      'Upload a carrier’s activation export (CSV, the body is the file) read with the carrier’s kept column mapping; the run loads and applies in the background',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    query: z.object({
      client_carrier_id: idNumber,
      file_name: requiredText('file name', 255),
    }),
    fileBody: { maxBytes: SIM_DETECTION_MAX_BYTES },
    response: simDetectionRunSchema,
    successStatus: 201,
  }),
  rerun: defineEndpoint({
    method: 'POST',
    path: '/sim/detection/runs/:id/rerun',
    summary: 'Apply a finished run’s rows again as a new run',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    response: simDetectionRunSchema,
    successStatus: 201,
  }),
  pull: defineEndpoint({
    method: 'POST',
    path: '/sim/detection/pulls',
    summary: 'Ask the client carrier’s adapter about a list or range of ICCIDs, as a new run',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    body: simDetectionPullSchema,
    response: simDetectionRunSchema,
    successStatus: 201,
  }),
  exportDifferences: defineEndpoint({
    method: 'POST',
    path: '/sim/detection/runs/:id/exports',
    summary: 'A download link for a run’s differences (newly active, changed, unknown, anomaly)',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    body: z.object({ format: z._default(z.enum(FILE_FORMATS), 'csv') }),
    response: downloadSchema,
    successStatus: 201,
  }),
  mapping: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/mappings/:id',
    summary: 'The column mapping kept for a client carrier’s exports',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    response: simDetectionMappingSchema,
  }),
  saveMapping: defineEndpoint({
    method: 'PUT',
    path: '/sim/detection/mappings/:id',
    summary: 'Keep the column mapping of a client carrier’s exports',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    body: simDetectionColumnsSchema,
    response: simDetectionMappingSchema,
  }),
  carrierOptions: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/carrier-options',
    summary: 'Up to 20 client carriers (vendors of type carrier-client), for a picker',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  anomalies: defineEndpoint({
    method: 'GET',
    path: '/sim/detection/anomalies',
    summary: 'Anomalies found by detection runs, newest first (before: the next page’s id)',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    query: z.object({
      status: z._default(z.enum(SIM_ANOMALY_STATUSES), 'open'),
      before: z.optional(idNumber),
      limit: pageLimit,
    }),
    response: pageOf(simAnomalySchema),
  }),
  resolveAnomaly: defineEndpoint({
    method: 'POST',
    path: '/sim/detection/anomalies/:id/resolve',
    summary: 'Resolve an open anomaly with a note of what was done',
    tag: TAG,
    guard: SIM_DETECTION_ACCESS,
    params: idParamsSchema,
    body: z.object({ resolution: requiredText('resolution', 500) }),
    response: simAnomalySchema,
  }),
};
