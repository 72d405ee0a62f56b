import type { Readable } from 'node:stream';
import { parseIccid, type SimDetectionColumns, type SimDetectState } from '@inventory/contract';
import Papa from 'papaparse';

/**
 * Reading a carrier's activation export as a stream: rows are parsed as the bytes arrive and
 * handed on in batches, so a file of a million rows never sits in memory as rows.
 */

/** A row of an export as a run keeps it; `problem` set: the row is not applied. */
export type DetectionRow = {
  /** The row's line in the file, the header being line 1. */
  line: number;
  iccid: string;
  state: string;
  mdn: string | null;
  activation_date: string | null;
  imei_seen: string | null;
  problem: string | null;
};

/** The carrier's words for a line's state. */
const STATE_WORDS: Record<string, SimDetectState> = {
  active: 'active',
  activated: 'active',
  live: 'active',
  inactive: 'inactive',
  deactivated: 'inactive',
  disconnected: 'inactive',
  cancelled: 'inactive',
  canceled: 'inactive',
  terminated: 'inactive',
  suspended: 'suspended',
  hotlined: 'suspended',
  barred: 'suspended',
  'not found': 'not_found',
  not_found: 'not_found',
  unknown: 'not_found',
};

/** YYYY-MM-DD, or the US MM/DD/YYYY spreadsheets write; a time after the date is ignored. */
function dateOf(text: string): string | null | undefined {
  if (text === '') return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: .*)?$/.exec(text);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : us
      ? [Number(us[3]), Number(us[1]), Number(us[2])]
      : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1990 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return date.toISOString().slice(0, 10);
}

/** One data row of the export read by the mapping's column positions. */
export function detectionRowOf(
  cells: readonly string[],
  line: number,
  at: { iccid: number; state: number; mdn: number; activation_date: number; imei: number },
): DetectionRow {
  const cell = (index: number) => (index < 0 ? '' : (cells[index] ?? '').trim());
  const rawIccid = cell(at.iccid);
  const rawState = cell(at.state);
  const rawDate = cell(at.activation_date);
  const imeiDigits = cell(at.imei).replace(/[\s-]/g, '');
  const mdnDigits = cell(at.mdn).replace(/\D/g, '');
  const iccid = parseIccid(rawIccid);
  const state = STATE_WORDS[rawState.toLowerCase().replace(/[\s_-]+/g, ' ')];
  const date = dateOf(rawDate);
  const problem = !iccid.ok
    ? iccid.message
    : state === undefined
      ? `The state "${rawState.slice(0, 40)}" is none of active, inactive, suspended or not found.`
      : date === undefined
        ? `The activation date "${rawDate.slice(0, 40)}" is not a date (YYYY-MM-DD or MM/DD/YYYY).`
        : imeiDigits !== '' && !/^\d{15}$/.test(imeiDigits)
          ? `The IMEI "${imeiDigits.slice(0, 40)}" is not 15 digits.`
          : null;
  return {
    line,
    iccid: iccid.ok ? iccid.value.iccid : rawIccid.slice(0, 40),
    state: state ?? rawState.slice(0, 40),
    mdn: mdnDigits === '' ? null : mdnDigits.slice(0, 20),
    activation_date: date ?? null,
    imei_seen: imeiDigits === '' ? null : imeiDigits.slice(0, 20),
    problem,
  };
}

/** Thrown when an export cannot be read as the mapping says (a column missing, not CSV). */
export class ExportRefusal extends Error {}

/** The positions of the mapping's columns in a header row; a required one missing is refused. */
export function columnPositions(header: readonly string[], columns: SimDetectionColumns) {
  const names = header.map((name) => name.replace(/^\uFEFF/, '').trim());
  const at = (name: string | null | undefined) => (name ? names.indexOf(name) : -1);
  const positions = {
    iccid: at(columns.iccid),
    state: at(columns.state),
    mdn: at(columns.mdn),
    activation_date: at(columns.activation_date),
    imei: at(columns.imei),
  };
  const missing = (Object.keys(positions) as (keyof typeof positions)[]).filter(
    (field) => positions[field] < 0 && columns[field],
  );
  if (missing.length > 0) {
    throw new ExportRefusal(
      `The file has no column ${missing.map((field) => `"${columns[field]}"`).join(', ')}: check the carrier's column mapping.`,
    );
  }
  return positions;
}

/**
 * Where the text's complete records end: after its last line break outside quotes (a quote
 * count that is even there; an escaped quote `""` keeps the count even). -1 when none.
 */
function completeUpTo(text: string): number {
  let quotes = 0;
  let end = -1;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 34) quotes += 1;
    else if (code === 10 && quotes % 2 === 0) end = at;
  }
  return end;
}

/**
 * The export's rows in batches of `batchSize`, parsed as the stream arrives: each chunk's
 * complete records are parsed at once (papaparse on that text) and the unfinished last record
 * waits for the next chunk, so memory holds a chunk and a batch, never the file. Rows up to
 * `afterLine` are skipped: a load resumed after a restart starts after the last line it kept.
 */
export async function* detectionBatches(
  input: Readable,
  columns: SimDetectionColumns,
  { batchSize, afterLine = 1 }: { batchSize: number; afterLine?: number },
): AsyncGenerator<DetectionRow[]> {
  // Decoded as text before parsing, so a character split between two chunks stays whole.
  input.setEncoding('utf8');
  let positions: ReturnType<typeof columnPositions> | null = null;
  let line = 0;
  let batch: DetectionRow[] = [];
  let rest = '';
  const take = (text: string) => {
    const records = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data;
    for (const cells of records) {
      line += 1;
      if (positions === null) positions = columnPositions(cells, columns);
      else if (line > afterLine) batch.push(detectionRowOf(cells, line, positions));
    }
  };
  for await (const chunk of input as AsyncIterable<string>) {
    const text = rest + chunk;
    const end = completeUpTo(text);
    if (end < 0) {
      rest = text;
      continue;
    }
    take(text.slice(0, end + 1));
    rest = text.slice(end + 1);
    while (batch.length >= batchSize) {
      yield batch.slice(0, batchSize);
      batch = batch.slice(batchSize);
    }
  }
  if (rest.trim() !== '') take(rest);
  if (positions === null) throw new ExportRefusal('The file is empty: it has no header row.');
  while (batch.length > 0) {
    yield batch.slice(0, batchSize);
    batch = batch.slice(batchSize);
  }
}

/** The rows of a file the size of `content`, before reading it: its line breaks less the header. */
export function estimatedRows(content: Buffer): number {
  let breaks = 0;
  for (let at = content.indexOf(10); at >= 0; at = content.indexOf(10, at + 1)) breaks += 1;
  const last = content.at(-1);
  return Math.max(0, breaks + (last !== undefined && last !== 10 ? 1 : 0) - 1);
}
