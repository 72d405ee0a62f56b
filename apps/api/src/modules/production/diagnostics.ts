import {
  DIAGNOSTIC_BATTERY_HEADERS,
  DIAGNOSTIC_FAIL_WORDS,
  DIAGNOSTIC_HEADERS,
  DIAGNOSTIC_IMEI_HEADERS,
  DIAGNOSTIC_MAX_ROWS,
  DIAGNOSTIC_PASS_WORDS,
  TEST_ITEMS,
  statusText,
  type DeviceStatus,
  type DiagnosticDevice,
  type DiagnosticResult,
  type TestItem,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { fieldError, ValidationError } from '../../http/errors.js';
import { readUpload } from '../../toolkit/files.js';
import { auditActor, recordAudits } from '../audit/index.js';
import type { Actor } from './production.service.js';

/**
 * A diagnostic tool's export at the grading station (decision 0020, amended): a file of devices,
 * each with its IMEI, pass or fail per test and the battery health, read all at once; every row
 * right or nothing stored. Each device's results wait in `device_diagnostics` until its test is
 * recorded; a later file replaces them.
 */

/** At most this many line errors are said; the rest are counted. */
const ERRORS_SAID = 50;

/** A header as compared: lower case, letters and digits only ("Wi-Fi" is "wifi"). */
const comparable = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const ITEM_OF_HEADER = new Map<string, TestItem>(
  TEST_ITEMS.flatMap((item) =>
    DIAGNOSTIC_HEADERS[item].map((header) => [comparable(header), item] as const),
  ),
);
const PASS = new Set<string>(DIAGNOSTIC_PASS_WORDS);
const FAIL = new Set<string>(DIAGNOSTIC_FAIL_WORDS);
const NOT_RUN = new Set(['', 'na', 'n/a', '-', 'not tested', 'untested', 'skipped']);

type Columns = { imei: number; battery: number | null; items: [TestItem, number][] };

/** Where the file's IMEI, battery and test columns are; 422 when it has no IMEI or no test. */
function columnsOf(headers: readonly string[]): Columns {
  const find = (names: readonly string[]) => {
    const wanted = new Set(names.map(comparable));
    const index = headers.findIndex((header) => wanted.has(comparable(header)));
    return index < 0 ? null : index;
  };
  const imei = find(DIAGNOSTIC_IMEI_HEADERS);
  if (imei === null) {
    throw fieldError('file', `The file has no IMEI column: name it ${DIAGNOSTIC_IMEI_HEADERS[0]}.`);
  }
  const items = headers.flatMap((header, index): [TestItem, number][] => {
    const item = ITEM_OF_HEADER.get(comparable(header));
    return item ? [[item, index]] : [];
  });
  const battery = find(DIAGNOSTIC_BATTERY_HEADERS);
  if (items.length === 0 && battery === null) {
    throw fieldError(
      'file',
      `The file has no test column: name them ${TEST_ITEMS.map((item) => DIAGNOSTIC_HEADERS[item][0]).join(', ')} or ${DIAGNOSTIC_BATTERY_HEADERS[0]}.`,
    );
  }
  return { imei, battery, items };
}

type Read = {
  line: number;
  code: string;
  items: DiagnosticResult['items'];
  battery_health: number | null;
};

/** One row's results, or what is wrong with it in words. */
function readRow(
  cells: readonly string[],
  line: number,
  columns: Columns,
  headers: readonly string[],
): Read | string[] {
  const problems: string[] = [];
  const code = (cells[columns.imei] ?? '').trim().toUpperCase();
  if (!code) problems.push(`Line ${line}: the IMEI is empty.`);
  const items: DiagnosticResult['items'] = {};
  for (const [item, index] of columns.items) {
    const cell = (cells[index] ?? '').trim().toLowerCase();
    if (NOT_RUN.has(cell)) continue;
    if (FAIL.has(cell)) items[item] = 'fail';
    else if (PASS.has(cell)) items[item] ??= 'pass';
    else problems.push(`Line ${line}, ${headers[index]}: write pass or fail, not "${cell}".`);
  }
  let battery: number | null = null;
  const batteryCell = columns.battery === null ? '' : (cells[columns.battery] ?? '').trim();
  if (batteryCell && !NOT_RUN.has(batteryCell.toLowerCase())) {
    const match = /^(\d{1,3}(?:\.\d+)?)\s*%?$/.exec(batteryCell);
    const value = match ? Math.round(Number(match[1])) : NaN;
    if (!(value >= 0 && value <= 100)) {
      problems.push(`Line ${line}, battery health: write a percentage from 0 to 100.`);
    } else battery = value;
  }
  return problems.length > 0 ? problems : { line, code, items, battery_health: battery };
}

/** The device of each IMEI (or second IMEI) with its status. */
async function devicesOf(db: Queryable, codes: readonly string[]) {
  const rows = await db.query<{
    id: number;
    identifier: string;
    imei2: string | null;
    status: DeviceStatus;
  }>(
    `SELECT id, identifier, imei2, status FROM devices
     WHERE identifier = ANY ($1::text[]) OR imei2 = ANY ($1::text[])`,
    [codes],
  );
  const byCode = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    byCode.set(row.identifier, row);
    if (row.imei2) byCode.set(row.imei2, row);
  }
  return byCode;
}

/**
 * Reads a diagnostic file and keeps each device's results for its test: every row must name a
 * device in production, once, with pass or fail cells (422 naming each line otherwise).
 */
export async function storeDiagnostics(
  db: Db,
  { actor, meta }: Actor,
  fileName: string,
  content: Buffer,
): Promise<{ stored: number; devices: DiagnosticDevice[] }> {
  const file = await readUpload(fileName, content);
  if (file.rows.length > DIAGNOSTIC_MAX_ROWS) {
    throw fieldError(
      'file',
      `The file has ${file.rows.length} rows: a diagnostic file holds at most ${DIAGNOSTIC_MAX_ROWS}.`,
    );
  }
  const columns = columnsOf(file.headers);
  const problems: string[] = [];
  const read: Read[] = [];
  const lineOfCode = new Map<string, number>();
  file.rows.forEach((cells, index) => {
    const line = index + 2;
    const code = (cells[columns.imei] ?? '').trim().toUpperCase();
    const earlier = lineOfCode.get(code);
    if (earlier !== undefined) {
      problems.push(`Line ${line}: ${code} repeats line ${earlier}.`);
      return;
    }
    if (code) lineOfCode.set(code, line);
    const row = readRow(cells, line, columns, file.headers);
    if (Array.isArray(row)) problems.push(...row);
    else read.push(row);
  });
  const devices = await devicesOf(
    db,
    read.map((row) => row.code),
  );
  const firstLine = new Map<number, number>();
  const found: (Read & { device_id: number; identifier: string })[] = [];
  for (const row of read) {
    const device = devices.get(row.code);
    if (!device) {
      problems.push(`Line ${row.line}: no device has the IMEI ${row.code}.`);
      continue;
    }
    const earlier = firstLine.get(device.id);
    if (earlier !== undefined) {
      problems.push(`Line ${row.line}: ${device.identifier} repeats line ${earlier}.`);
      continue;
    }
    firstLine.set(device.id, row.line);
    if (device.status !== 'in_production') {
      problems.push(
        `Line ${row.line}: ${device.identifier} is ${statusText(device.status)}, not in production.`,
      );
      continue;
    }
    found.push({ ...row, device_id: device.id, identifier: device.identifier });
  }
  if (problems.length > 0) {
    problems.sort((a, b) => lineOf(a) - lineOf(b));
    const said = problems.slice(0, ERRORS_SAID);
    if (problems.length > ERRORS_SAID) {
      said.push(`And ${problems.length - ERRORS_SAID} more: nothing was stored.`);
    }
    throw new ValidationError({ file: said });
  }

  const stored = await db.transaction(async (tx) => {
    const rows = await tx.query<{ device_id: number; imported_at: string }>(
      `INSERT INTO device_diagnostics (device_id, items, battery_health, file_name, imported_by)
       SELECT r.device_id, r.items::jsonb, r.battery_health, $4, $5
       FROM unnest($1::bigint[], $2::text[], $3::int[]) AS r (device_id, items, battery_health)
       ON CONFLICT (device_id) DO UPDATE SET items = EXCLUDED.items,
         battery_health = EXCLUDED.battery_health, file_name = EXCLUDED.file_name,
         imported_at = now(), imported_by = EXCLUDED.imported_by
       RETURNING device_id, to_json(imported_at) #>> '{}' AS imported_at`,
      [
        found.map((row) => row.device_id),
        found.map((row) => JSON.stringify(row.items)),
        found.map((row) => row.battery_health),
        fileName,
        actor.userId,
      ],
    );
    await recordAudits(
      tx,
      {
        ...auditActor(actor, meta),
        action: 'device.diagnostics_imported',
        entityType: 'device',
      },
      found.map((row) => ({
        entityId: row.device_id,
        after: { file: fileName, items: row.items, battery_health: row.battery_health },
      })),
    );
    return new Map(rows.map((row) => [row.device_id, row.imported_at]));
  });
  return {
    stored: found.length,
    devices: found.map((row) => ({
      device_id: row.device_id,
      identifier: row.identifier,
      items: row.items,
      battery_health: row.battery_health,
      file_name: fileName,
      imported_at: stored.get(row.device_id)!,
    })),
  };
}

const lineOf = (problem: string) => Number(/^Line (\d+)/.exec(problem)?.[1] ?? 0);

/** The results waiting for a device's test, if any. */
export async function diagnosticsOf(
  db: Queryable,
  deviceId: number,
): Promise<DiagnosticResult | null> {
  const [row] = await db.query<DiagnosticResult>(
    `SELECT items, battery_health, file_name, to_json(imported_at) #>> '{}' AS imported_at
     FROM device_diagnostics WHERE device_id = $1`,
    [deviceId],
  );
  return row ?? null;
}
