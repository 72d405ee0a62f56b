import {
  CORRECTION_FIELDS,
  DEVICE_CONDITIONS,
  DEVICE_GRADES,
  deviceCorrectionImport,
  UNCORRECTABLE_STATUSES,
  deviceCorrectionRowSchema,
  type CorrectionColumn,
  type DeviceStatus,
  type FieldErrors,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';
import type {
  ImportStore,
  Prepared,
  WriteFieldsOf,
  WriteInput,
  Writer,
} from '../../toolkit/resource.js';
import { auditActor, recordAudits } from '../audit/index.js';
import { findColors, findModels, matchOf, type Match } from '../master-data/index.js';

/**
 * Corrections by file (`/invoice/product-team/update-device`): one row per attribute changed, with
 * its IMEI, the field, the new value and the reason. The toolkit's import checks every row in a
 * dry run and writes them all in one transaction or none; each row is a `corrected` event on its
 * device's timeline and a `device.corrected` audit entry, as a correction on the page is.
 */

type Row = { imei: string; field: string; value: string | null; reason: string };

/** A checked row: the device, the column and its new value as the column holds it. */
type Correction = {
  device_id: number;
  field: CorrectionColumn;
  value: string | number | null;
  reason: string;
};

type Current = {
  id: number;
  identifier: string;
  imei2: string | null;
  status: DeviceStatus;
} & Record<CorrectionColumn, string | number | null>;

const CURRENT_COLUMNS = `id, identifier, imei2, status, model_id, color_id, capacity_gb, grade,
  carrier_lock, condition`;

const FIELD_WORDS = 'model, colour, capacity, grade, carrier lock or condition';
const FIELD_NAMES: Record<CorrectionColumn, string> = {
  model_id: 'model',
  color_id: 'colour',
  capacity_gb: 'capacity',
  grade: 'grade',
  carrier_lock: 'carrier lock',
  condition: 'condition',
};

const columnOf = (field: string): CorrectionColumn | undefined =>
  (CORRECTION_FIELDS as Record<string, CorrectionColumn>)[
    field.toLowerCase().replace(/[^a-z]/g, '')
  ];

const refusedStatus = (status: DeviceStatus) =>
  (UNCORRECTABLE_STATUSES as readonly string[]).includes(status);

const soldMessage = (device: Pick<Current, 'identifier' | 'status'>) =>
  `${device.identifier} is ${device.status}: a unit promised or gone to a customer keeps its attributes.`;

/** Devices by IMEI (or second IMEI), as they are now. */
async function currentDevices(db: Queryable, codes: readonly string[]) {
  const rows = await db.query<Current>(
    `SELECT ${CURRENT_COLUMNS} FROM devices
     WHERE identifier = ANY ($1::text[]) OR imei2 = ANY ($1::text[])`,
    [codes],
  );
  const byCode = new Map<string, Current>();
  for (const row of rows) {
    byCode.set(row.identifier, row);
    if (row.imei2) byCode.set(row.imei2, row);
  }
  return byCode;
}

/** The new value as its column holds it, or what to write instead. */
function valueOf(
  column: CorrectionColumn,
  text: string | null,
  models: Map<string, Match[]>,
  colors: Map<string, Match[]>,
): { value: string | number | null } | { message: string } {
  if (text === null) {
    return column === 'model_id'
      ? { message: 'Name the model: a device always has one.' }
      : { value: null };
  }
  switch (column) {
    case 'model_id': {
      const match = matchOf(models.get(text.toLowerCase()), text, 'model');
      return typeof match === 'string' ? { message: match } : { value: match.id };
    }
    case 'color_id': {
      const match = matchOf(colors.get(text.toLowerCase()), text, 'colour');
      return typeof match === 'string' ? { message: match } : { value: match.id };
    }
    case 'capacity_gb': {
      const gb = /^(\d{1,6})\s*(gb)?$/i.exec(text);
      return gb && Number(gb[1]) >= 1
        ? { value: Number(gb[1]) }
        : { message: 'Write the capacity in whole GB, like 128.' };
    }
    case 'grade': {
      const grade = DEVICE_GRADES.find((g) => g.toLowerCase() === text.toLowerCase());
      return grade ? { value: grade } : { message: `Write one of ${DEVICE_GRADES.join(', ')}.` };
    }
    case 'condition': {
      const condition = DEVICE_CONDITIONS.find((c) => c === text.toLowerCase());
      return condition
        ? { value: condition }
        : { message: `Write one of ${DEVICE_CONDITIONS.join(', ')}.` };
    }
    case 'carrier_lock':
      return text.length > 60
        ? { message: 'The carrier lock is too long (at most 60 characters).' }
        : { value: text };
  }
}

/**
 * Resolves every row's device, field and value in a few queries, and refuses what a correction
 * on the page refuses: an unknown IMEI, a unit promised or gone to a customer, a value that is
 * the device's already.
 */
async function prepareCorrections(
  inputs: readonly WriteInput<WriteFieldsOf<typeof deviceCorrectionRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const rows = inputs.map(({ input }) => ({ value: null, ...input }) as Row);
  const codes = rows.map((row) => row.imei.toUpperCase());
  const devices = await currentDevices(db, codes);
  const namesOf = (column: CorrectionColumn) => [
    ...new Set(
      rows
        .filter((row) => columnOf(row.field) === column && row.value)
        .map((row) => row.value!.toLowerCase()),
    ),
  ];
  const models = await findModels(db, [], namesOf('model_id'));
  const colors = await findColors(db, [], namesOf('color_id'));

  return rows.map((row, index): Prepared => {
    const errors: FieldErrors = {};
    const device = devices.get(codes[index]!);
    if (!device) errors.imei = [`No device has the IMEI ${codes[index]}.`];
    else if (refusedStatus(device.status)) errors.imei = [soldMessage(device)];
    const column = columnOf(row.field);
    if (!column) {
      errors.field = [`Write one of ${FIELD_WORDS}.`];
      return { errors };
    }
    const read = valueOf(column, row.value, models, colors);
    if ('message' in read) errors.value = [read.message];
    else if (device && (device[column] ?? null) === read.value) {
      errors.value = [
        read.value === null
          ? `The ${FIELD_NAMES[column]} is empty already.`
          : `The ${FIELD_NAMES[column]} is ${row.value} already.`,
      ];
    }
    if (Object.keys(errors).length > 0) return { errors };
    const correction: Correction = {
      device_id: device!.id,
      field: column,
      value: (read as { value: string | number | null }).value,
      reason: row.reason,
    };
    return { values: correction };
  });
}

/** The SQL type each column's new values are cast to. */
const COLUMN_TYPES: Record<CorrectionColumn, string> = {
  model_id: 'bigint',
  color_id: 'bigint',
  capacity_gb: 'integer',
  grade: 'text',
  carrier_lock: 'text',
  condition: 'text',
};

/**
 * Writes checked corrections: the devices are locked (in id order) and checked again, a unit
 * reserved since the check stopping them all (409); one update per column, one event per row.
 */
async function writeCorrections(
  records: readonly Record<string, unknown>[],
  tx: Queryable,
  { actor, meta }: Writer,
) {
  const corrections = records as readonly Correction[];
  const locked = await tx.query<Current>(
    `SELECT ${CURRENT_COLUMNS} FROM devices WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [[...new Set(corrections.map((row) => row.device_id))]],
  );
  const before = new Map(locked.map((device) => [device.id, device]));
  const sold = locked.find((device) => refusedStatus(device.status));
  if (sold) throw new ConflictError(`${soldMessage(sold)} Nothing was corrected.`);
  for (const column of Object.keys(COLUMN_TYPES) as CorrectionColumn[]) {
    const edits = corrections.filter((row) => row.field === column);
    if (edits.length === 0) continue;
    await tx.query(
      `UPDATE devices d SET ${column} = e.value::${COLUMN_TYPES[column]}, updated_at = now()
       FROM unnest($1::bigint[], $2::text[]) AS e (id, value)
       WHERE d.id = e.id`,
      [
        edits.map((row) => row.device_id),
        edits.map((row) => (row.value === null ? null : String(row.value))),
      ],
    );
  }
  const changes = corrections.map((row) => ({
    row,
    was: { [row.field]: before.get(row.device_id)![row.field] ?? null },
    now: { [row.field]: row.value },
  }));
  await tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status, data)
     SELECT e.device_id, $3, $4, 'corrected', e.status, e.status, e.data::jsonb
     FROM unnest($1::bigint[], $2::text[], $5::text[]) AS e (device_id, data, status)`,
    [
      changes.map(({ row }) => row.device_id),
      changes.map(({ row, was, now }) =>
        JSON.stringify({ before: was, after: now, reason: row.reason, source: 'corrections file' }),
      ),
      actor.userId,
      actor.userName,
      changes.map(({ row }) => before.get(row.device_id)!.status),
    ],
  );
  await recordAudits(
    tx,
    { ...auditActor(actor, meta), action: 'device.corrected', entityType: 'device' },
    changes.map(({ row, was, now }) => ({
      entityId: row.device_id,
      before: was,
      after: { ...now, reason: row.reason },
    })),
  );
  return { created: 0, updated: corrections.length };
}

export const deviceCorrectionImportStore: ImportStore<typeof deviceCorrectionRowSchema> = {
  contract: deviceCorrectionImport,
  table: 'devices',
  entity: 'device_correction',
  prepare: prepareCorrections,
  imports: {
    rowSchema: deviceCorrectionRowSchema,
    writer: {
      fields: ['device_id', 'field'],
      countExisting: async (records) => records.length,
      write: writeCorrections,
    },
  },
};
