import {
  UNCORRECTABLE_STATUSES,
  type CorrectableDevice,
  type deviceCorrectionSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { Actor } from './production.service.js';

/**
 * Correcting a device's attributes (DOMAIN.md 4.17 `/invoice/product-team/update-device`): one
 * device at a time, with a reason, never a unit promised or gone to a customer; every correction
 * is on the device's timeline and in the audit log.
 */

/** The colours a correction offers. */
export const COLOR_PICKER: PickerSql = {
  from: 'colors c',
  id: 'c.id',
  label: 'c.name',
  where: 'c.active AND ($1::text IS NULL OR c.name ILIKE $1)',
  order: 'lower(c.name), c.id',
};

const DEVICE_SELECT = `
  SELECT d.id, d.identifier, d.status, d.model_id,
    concat_ws(' ', b.name, m.name) AS model, d.color_id, c.name AS color, d.capacity_gb,
    d.grade, d.carrier_lock, d.condition
  FROM devices d
  JOIN device_models m ON m.id = d.model_id
  JOIN brands b ON b.id = m.brand_id
  LEFT JOIN colors c ON c.id = d.color_id`;

/** A device by IMEI (or second IMEI, or MEID) with the attributes a correction changes. */
export async function correctableDevice(db: Db, code: string): Promise<CorrectableDevice> {
  const wanted = code.trim().toUpperCase();
  const [device] = await db.query<CorrectableDevice>(
    `${DEVICE_SELECT} WHERE d.id = (SELECT id FROM devices WHERE identifier = $1 OR imei2 = $1 LIMIT 1)`,
    [wanted],
  );
  if (!device) throw new NotFoundError(`No device has the IMEI ${wanted}.`);
  return device;
}

/** The attributes a correction may change, by their column. */
const FIELDS = [
  'model_id',
  'color_id',
  'capacity_gb',
  'grade',
  'carrier_lock',
  'condition',
] as const;

/** Corrects the attributes given; 409 for a unit sold, 422 when nothing changes. */
export async function correctDevice(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof deviceCorrectionSchema>,
): Promise<CorrectableDevice> {
  const [before] = await tx.query<CorrectableDevice>(
    `${DEVICE_SELECT} WHERE d.id = $1 FOR UPDATE OF d`,
    [input.device_id],
  );
  if (!before) throw new NotFoundError(`There is no device with id ${input.device_id}.`);
  if ((UNCORRECTABLE_STATUSES as readonly string[]).includes(before.status)) {
    throw new ConflictError(
      `${before.identifier} is ${before.status}: a unit promised or gone to a customer keeps its attributes.`,
    );
  }
  const changes = FIELDS.filter(
    (field) => input[field] !== undefined && (input[field] ?? null) !== before[field],
  );
  if (changes.length === 0) {
    throw fieldError('reason', 'Change at least one attribute before you save.');
  }
  if (input.model_id !== undefined) {
    const [model] = await tx.query('SELECT 1 FROM device_models WHERE id = $1', [input.model_id]);
    if (!model) throw fieldError('model_id', 'Choose a model from the list.');
  }
  if (input.color_id) {
    const [color] = await tx.query('SELECT 1 FROM colors WHERE id = $1', [input.color_id]);
    if (!color) throw fieldError('color_id', 'Choose a colour from the list.');
  }
  await tx.query(
    `UPDATE devices SET ${changes.map((field, index) => `${field} = $${index + 2}`).join(', ')},
       updated_at = now()
     WHERE id = $1`,
    [input.device_id, ...changes.map((field) => input[field] ?? null)],
  );
  const [after] = await tx.query<CorrectableDevice>(`${DEVICE_SELECT} WHERE d.id = $1`, [
    input.device_id,
  ]);
  const was = Object.fromEntries(changes.map((field) => [field, before[field]]));
  const now = Object.fromEntries(changes.map((field) => [field, after![field]]));
  await tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status, data)
     VALUES ($1, $2, $3, 'corrected', $4, $4, $5::jsonb)`,
    [
      input.device_id,
      actor.userId,
      actor.userName,
      before.status,
      JSON.stringify({ before: was, after: now, reason: input.reason }),
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'device.corrected',
    entityType: 'device',
    entityId: input.device_id,
    before: was,
    after: { ...now, reason: input.reason },
  });
  return after!;
}
