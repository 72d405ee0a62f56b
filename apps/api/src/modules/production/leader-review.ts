import {
  nextDeviceStatus,
  type ProductionBoxDevice,
  type DeviceStatus,
  type Failure,
  type ProductRequestStatus,
  type regradeSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { workerOf, type Actor } from './production.service.js';

/**
 * The leader's review (DOMAIN.md 4.17): who has which device of a box, the failures of the open
 * requests, and a tested device sent back to a worker for a re-grade (device lifecycle `regrade`).
 */

const OPEN_REQUEST = "('approved', 'in_progress')";

/** The devices of a box in production, by worker; 404 for a box that does not exist. */
export async function boxDevices(db: Db, boxId: number): Promise<ProductionBoxDevice[]> {
  const [box] = await db.query('SELECT 1 FROM warehouse_boxes WHERE id = $1', [boxId]);
  if (!box) throw new NotFoundError(`There is no warehouse box with id ${boxId}.`);
  return db.query<ProductionBoxDevice>(
    `SELECT d.id, d.identifier, pa.worker_id, u.name AS worker,
       to_json(pa.assigned_at) #>> '{}' AS assigned_at
     FROM production_assignments pa
     JOIN devices d ON d.id = pa.device_id AND d.status = 'in_production'
     JOIN users u ON u.id = pa.worker_id
     WHERE pa.warehouse_box_id = $1
     ORDER BY u.name, pa.worker_id, d.identifier`,
    [boxId],
  );
}

/** Devices failed QC in open requests with their last test's findings, newest test first. */
export const productionFailures = (db: Db) =>
  db.query<Failure>(
    `SELECT d.id AS device_id, d.identifier, ${MODEL_DISPLAY_NAME} AS model, wb.code AS box,
       r.number AS request_number, pa.worker_id, u.name AS worker,
       COALESCE(t.issue_codes, '{}') AS issue_codes, t.battery_health, t.cosmetic_notes,
       to_json(t.run_at) #>> '{}' AS tested_at
     FROM product_requests r
     JOIN production_assignments pa ON pa.product_request_id = r.id
     JOIN devices d ON d.id = pa.device_id AND d.status = 'failed_qc'
     JOIN device_models m ON m.id = d.model_id
     JOIN brands b ON b.id = m.brand_id
     JOIN users u ON u.id = pa.worker_id
     LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
     LEFT JOIN LATERAL (SELECT dt.issue_codes, dt.battery_health, dt.cosmetic_notes, dt.run_at
                        FROM device_tests dt WHERE dt.device_id = d.id
                        ORDER BY dt.id DESC LIMIT 1) t ON true
     WHERE r.status IN ${OPEN_REQUEST}
     ORDER BY t.run_at DESC NULLS LAST, d.id DESC
     LIMIT 500`,
  );

type Tested = {
  id: number;
  identifier: string;
  status: DeviceStatus;
  status_before_hold: DeviceStatus | null;
  grade: string | null;
  worker_id: number | null;
  request_id: number | null;
  request_number: string | null;
  request_status: ProductRequestStatus | null;
};

/**
 * Sends a graded or failed device back to a worker's queue (the one who had it, or another) with
 * a reason: the lifecycle's `regrade` (its event and audit entry carry the reason, the grade it
 * had and the worker), while its request is open. Two leaders at once: the device is locked, so
 * the second finds it in production (409).
 */
export async function regradeDevice(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof regradeSchema>,
) {
  const code = input.code.trim().toUpperCase();
  const [device] = await tx.query<Tested>(
    `SELECT d.id, d.identifier, d.status, d.status_before_hold, d.grade, pa.worker_id,
       r.id AS request_id, r.number AS request_number, r.status AS request_status
     FROM devices d
     LEFT JOIN production_assignments pa ON pa.device_id = d.id
     LEFT JOIN product_requests r ON r.id = pa.product_request_id
     WHERE d.id = (SELECT id FROM devices WHERE identifier = $1 OR imei2 = $1 LIMIT 1)
     FOR UPDATE OF d`,
    [code],
  );
  if (!device) throw new NotFoundError(`No device has the IMEI ${code}.`);
  const step = nextDeviceStatus(device, 'regrade');
  if (!step.ok) throw new ConflictError(`${device.identifier}: ${step.message}`);
  if (device.worker_id === null || device.request_id === null) {
    throw new ConflictError(
      `${device.identifier} was not tested in production: only a device a worker tested goes back for a re-grade.`,
    );
  }
  if (device.request_status !== 'approved' && device.request_status !== 'in_progress') {
    throw new ConflictError(
      `${device.identifier} belongs to ${device.request_number}, which is ${device.request_status}: a re-grade needs its request open.`,
    );
  }
  const worker = await workerOf(tx, input.worker_id ?? device.worker_id);
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: [device.id],
    action: 'regrade',
    reason: input.reason,
    ref: { type: 'product_request', id: device.request_id },
    data: { worker_id: worker.id, worker: worker.name, previous_grade: device.grade },
  });
  await tx.query(
    `UPDATE production_assignments SET worker_id = $2, assigned_at = now(), assigned_by = $3
     WHERE device_id = $1`,
    [device.id, worker.id, actor.userId],
  );
  return {
    identifier: device.identifier,
    worker: worker.name,
    message: `${device.identifier} is back in ${worker.name}'s queue for a re-grade.`,
  };
}
