import {
  devicePhotoAttachments,
  PHOTO_GRADES,
  TEST_ITEMS,
  type FieldErrors,
  type TestOutcome,
  type testResultSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import { TRANSACTION_TIME } from '../../toolkit/lifecycle.js';
import { applyDeviceAction } from '../devices/index.js';
import { scanAnswer, scannedDevice, type Actor } from './production.service.js';

/**
 * The worker's test of a device (DOMAIN.md 3.1, invariants 5 to 7): the test record, the wipe,
 * the locks and the battery go on the device; a pass grades it, a fail fails QC with issue codes,
 * a lock or a blacklist listing holds it. A device graded already is said so, not graded again.
 */
export async function recordTest(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof testResultSchema>,
): Promise<TestOutcome> {
  const [found] = await tx.query<{ identifier: string }>(
    'SELECT identifier FROM devices WHERE id = $1 FOR UPDATE',
    [input.device_id],
  );
  if (!found) throw new NotFoundError(`There is no device with id ${input.device_id}.`);
  const scan = scanAnswer(await scannedDevice(tx, found.identifier), found.identifier, actor);
  if (scan.result === 'already_graded') {
    return { result: 'already_graded', message: scan.message, device: scan.device, test_id: null };
  }
  if (scan.result !== 'ready') throw new ConflictError(scan.message);

  const failedItems = TEST_ITEMS.filter((item) => input.items[item] === 'fail');
  const issueCodes = input.issue_codes ?? [];
  const lock = input.frp_lock || input.activation_lock === true;
  const [listed] = await tx.query<{ id: number }>(
    `SELECT b.id FROM blacklist_entries b JOIN devices d ON d.imei = b.imei
     WHERE d.id = $1 AND b.cleared_at IS NULL`,
    [input.device_id],
  );

  if (!lock && input.outcome === 'pass') {
    const missing: FieldErrors = {};
    if (!input.wipe_method) missing.wipe_method = ['Record the wipe before grading.'];
    if (!input.wipe_certificate) missing.wipe_certificate = ['Enter the wipe certificate id.'];
    if (!input.grade || input.grade === 'F') missing.grade = ['Choose the grade (A+ to D).'];
    if (input.grade && (PHOTO_GRADES as readonly string[]).includes(input.grade)) {
      const [photo] = await tx.query(
        `SELECT 1 FROM attachments WHERE record_kind = $1 AND record_id = $2
           AND content_type LIKE 'image/%' LIMIT 1`,
        [devicePhotoAttachments.kind, input.device_id],
      );
      if (!photo) {
        missing.photos = [`Attach a photo of the device before you grade it ${input.grade}.`];
      }
    }
    if (failedItems.length > 0) {
      missing.items = [`A device that passes passes every item: ${failedItems.join(', ')} failed.`];
    }
    if (Object.keys(missing).length > 0) throw new ValidationError(missing);
  }
  if (!lock && input.outcome === 'fail' && issueCodes.length === 0) {
    throw new ValidationError({ issue_codes: ['Choose at least one issue code.'] });
  }

  const held = lock ? (input.frp_lock ? 'frp' : 'activation_lock') : listed ? 'blacklist' : null;
  const result = held ? 'hold' : input.outcome;
  // The test takes the diagnostic results that waited for it, whether it used them or not.
  const [diagnostics] = await tx.query<{ file_name: string }>(
    'DELETE FROM device_diagnostics WHERE device_id = $1 RETURNING file_name',
    [input.device_id],
  );
  const tool = input.tool ?? 'manual';
  if (tool === 'diagnostic_file' && !diagnostics) {
    throw new ValidationError({
      tool: ['No diagnostic results wait for this device: fill the checklist by hand.'],
    });
  }
  const [test] = await tx.query<{ id: number }>(
    `INSERT INTO device_tests (device_id, tester_id, items, battery_health, grade, issue_codes,
       cosmetic_notes, result, tool)
     VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      input.device_id,
      actor.userId,
      JSON.stringify(input.items),
      input.battery_health,
      result === 'pass' ? input.grade : result === 'fail' ? 'F' : null,
      issueCodes,
      input.cosmetic_notes ?? null,
      result,
      tool,
    ],
  );
  const testId = test!.id;
  const ref = { type: 'device_test', id: testId };
  const data = {
    ...(input.station && { station: input.station }),
    ...(tool === 'diagnostic_file' && { diagnostic_file: diagnostics!.file_name }),
  };
  // What the bench read goes on the device with its step, in the lifecycle's one update.
  const columns = {
    frp_lock: lock,
    battery_health: input.battery_health,
    blacklist_state: listed ? 'blocked' : 'clean',
    blacklist_checked_at: TRANSACTION_TIME,
    ...(input.wipe_method && {
      wipe_method: input.wipe_method,
      wiped_at: TRANSACTION_TIME,
    }),
    ...(input.wipe_certificate && { wipe_certificate: input.wipe_certificate }),
    ...(input.color_id && { color_id: input.color_id }),
    ...(input.capacity_gb && { capacity_gb: input.capacity_gb }),
    ...(result === 'pass' && {
      grade: input.grade,
      graded_at: TRANSACTION_TIME,
      graded_by: actor.userId,
    }),
    ...(result === 'fail' && { grade: 'F' }),
  };
  if (held) {
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [input.device_id],
      action: 'hold',
      holdReason: held,
      ref,
      data,
      columns,
    });
  } else {
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [input.device_id],
      action: result === 'pass' ? 'grade' : 'fail_qc',
      ref,
      data:
        result === 'pass' ? { ...data, grade: input.grade } : { ...data, issue_codes: issueCodes },
      columns,
    });
  }
  const after = await scannedDevice(tx, found.identifier);
  const { worker_id: _worker, worker_name: _name, ...device } = after!;
  const message =
    held === 'blacklist'
      ? `${found.identifier} is blacklisted: on hold, not graded.`
      : held
        ? `${found.identifier} has ${held === 'frp' ? 'FRP' : 'activation lock'} on: on hold until it is removed.`
        : result === 'pass'
          ? `${found.identifier} graded ${input.grade}: ready for consolidation.`
          : `${found.identifier} failed QC: ${issueCodes.join(', ')}.`;
  return {
    result: held ? 'held' : result === 'pass' ? 'graded' : 'failed_qc',
    message,
    device,
    test_id: testId,
  };
}
