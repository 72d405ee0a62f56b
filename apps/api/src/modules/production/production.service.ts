import {
  productRequestLifecycle,
  type LeaderBox,
  type ProductRequest,
  type ProductRequestAction,
  type ProductRequestStatus,
  type RequestBox,
  type WorkerDevice,
  type WorkerScan,
  type createProductRequestSchema,
  type assignmentSchema,
  type reassignmentSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { runTransition, timelineWriter, type LifecycleStore } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit, recordAudits } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';

/**
 * Production (DOMAIN.md 4.17): product requests and their boxes, the leader's assignments. The
 * worker's tests are in `production-tests.ts`.
 */

export type Actor = { readonly actor: Principal; readonly meta: RequestMeta };

/** The role whose holders work at the production station, by its stable key. */
export const PRODUCTION_WORKER_ROLE_KEY = 'production-worker';

export const productRequestStore: LifecycleStore<
  ProductRequestStatus,
  ProductRequestAction,
  never
> = {
  lifecycle: productRequestLifecycle,
  table: 'product_requests',
  label: 'number',
  effects: { approve: 'approved_at = now()' },
  writeEvents: timelineWriter('product_request_events', 'product_request_id'),
};

/** A model as the app names it, brand first ("Samsung Galaxy A15"); `alias` is its row's. */
const modelName = (alias: string) =>
  `concat_ws(' ', (SELECT b.name FROM brands b WHERE b.id = ${alias}.brand_id), ${alias}.name)`;
const MODEL_NAME = modelName('m');

const REQUEST_SELECT = `
  SELECT r.id, r.number, r.model_id, ${MODEL_NAME} AS model, r.qty, r.target_grade, r.priority,
    r.due_date::text AS due_date, r.status, r.note, to_json(r.created_at) #>> '{}' AS created_at,
    COALESCE(boxes.list, '[]'::json) AS boxes,
    json_build_object(
      'waiting', COALESCE(counts.waiting, 0), 'in_production', COALESCE(counts.in_production, 0),
      'graded', COALESCE(counts.graded, 0), 'failed', COALESCE(counts.failed, 0),
      'held', COALESCE(counts.held, 0)) AS progress
  FROM product_requests r
  JOIN device_models m ON m.id = r.model_id
  LEFT JOIN LATERAL (
    SELECT json_agg(json_build_object('id', wb.id, 'code', wb.code,
        'devices', wb.qty_scanned, 'staged_at', to_json(wb.staged_at) #>> '{}') ORDER BY wb.id) AS list
    FROM product_request_boxes l JOIN warehouse_boxes wb ON wb.id = l.warehouse_box_id
    WHERE l.product_request_id = r.id
  ) boxes ON true
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE d.status = 'received')::int AS waiting,
      count(*) FILTER (WHERE d.status = 'in_production')::int AS in_production,
      count(*) FILTER (WHERE d.status = 'graded')::int AS graded,
      count(*) FILTER (WHERE d.status = 'failed_qc')::int AS failed,
      count(*) FILTER (WHERE d.status = 'hold')::int AS held
    FROM product_request_boxes l JOIN devices d ON d.warehouse_box_id = l.warehouse_box_id
    WHERE l.product_request_id = r.id
  ) counts ON true`;

/** The open requests and the 100 last closed, newest first. */
export const listProductRequests = (db: Db) =>
  db.query<ProductRequest>(
    `${REQUEST_SELECT}
     WHERE r.id IN (
       (SELECT id FROM product_requests WHERE status IN ('submitted', 'approved', 'in_progress'))
       UNION ALL
       (SELECT id FROM product_requests WHERE status IN ('completed', 'cancelled')
        ORDER BY id DESC LIMIT 100))
     ORDER BY r.id DESC`,
  );

async function requestById(db: Db | Transaction, id: number): Promise<ProductRequest> {
  const [request] = await db.query<ProductRequest>(`${REQUEST_SELECT} WHERE r.id = $1`, [id]);
  if (!request) throw new NotFoundError(`There is no product request with id ${id}.`);
  return request;
}

/**
 * Staged boxes holding devices of the model that no active request holds, oldest staged first,
 * as many as it takes to cover the quantity (all there are when they do not cover it).
 */
export const proposeBoxes = (db: Db | Transaction, modelId: number, qty: number) =>
  db.query<RequestBox>(
    `SELECT id, code, devices, staged_at FROM (
       SELECT c.*, sum(c.devices) OVER (ORDER BY c.staged_order, c.id) - c.devices AS before
       FROM (
         SELECT wb.id, wb.code, COALESCE(wb.staged_at, wb.created_at) AS staged_order,
           to_json(wb.staged_at) #>> '{}' AS staged_at,
           (SELECT count(*)::int FROM devices d
            WHERE d.warehouse_box_id = wb.id AND d.status = 'received' AND d.model_id = $1) AS devices
         FROM warehouse_boxes wb
         WHERE wb.status = 'staged'
           AND NOT EXISTS (SELECT 1 FROM product_request_boxes l
                           WHERE l.warehouse_box_id = wb.id AND l.active)
       ) c WHERE c.devices > 0
     ) covered
     WHERE before < $2
     ORDER BY staged_order, id`,
    [modelId, qty],
  );

/** The proposal of a request that waits for its approval. */
export async function requestProposal(db: Db, id: number): Promise<RequestBox[]> {
  const request = await requestById(db, id);
  return proposeBoxes(db, request.model_id, request.qty);
}

/** Creates a submitted request and proposes the boxes to take. */
export async function createProductRequest(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof createProductRequestSchema>,
) {
  const [model] = await tx.query('SELECT 1 FROM device_models WHERE id = $1', [input.model_id]);
  if (!model) throw fieldError('model_id', 'Choose a model from the list.');
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO product_requests (model_id, qty, target_grade, priority, due_date, note, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      input.model_id,
      input.qty,
      input.target_grade ?? null,
      input.priority ?? 'normal',
      input.due_date ?? null,
      input.note ?? null,
      actor.userId,
    ],
  );
  const request = await requestById(tx, row!.id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'product_request.created',
    entityType: 'product_request',
    entityId: request.id,
    after: { number: request.number, model_id: input.model_id, qty: input.qty },
  });
  return { request, proposal: await proposeBoxes(tx, input.model_id, input.qty) };
}

/**
 * Approves a request with its boxes (the proposal when none are named): each must be staged and
 * in no other active request, which the partial unique index decides when two approvals meet.
 */
export async function approveProductRequest(
  tx: Transaction,
  { actor, meta }: Actor,
  id: number,
  boxIds: readonly number[] | undefined,
): Promise<ProductRequest> {
  const request = await requestById(tx, id);
  const ids = boxIds ?? (await proposeBoxes(tx, request.model_id, request.qty)).map((b) => b.id);
  if (ids.length === 0) {
    throw new ConflictError(`No staged box holds a ${request.model} to take: receive some first.`);
  }
  const boxes = await tx.query<{ id: number; code: string; status: string; devices: number }>(
    `SELECT wb.id, wb.code, wb.status,
       (SELECT count(*)::int FROM devices d
        WHERE d.warehouse_box_id = wb.id AND d.model_id = $2 AND d.status = 'received') AS devices
     FROM warehouse_boxes wb WHERE wb.id = ANY ($1::bigint[]) ORDER BY wb.id FOR UPDATE`,
    [ids, request.model_id],
  );
  const missing = ids.filter((boxId) => !boxes.some((box) => box.id === boxId));
  if (missing.length > 0) {
    throw fieldError('warehouse_box_ids', `There is no warehouse box with id ${missing[0]}.`);
  }
  const notStaged = boxes.find((box) => box.status !== 'staged');
  if (notStaged) {
    throw new ConflictError(
      `${notStaged.code} is ${notStaged.status.replace(/_/g, ' ')}, not staged: it cannot join a request.`,
    );
  }
  const empty = boxes.find((box) => box.devices === 0);
  if (empty) throw new ConflictError(`${empty.code} holds no ${request.model} waiting.`);
  await runTransition(tx, productRequestStore, { id, action: 'approve', actor, meta });
  try {
    await tx.query(
      `INSERT INTO product_request_boxes (product_request_id, warehouse_box_id)
       SELECT $1, unnest($2::bigint[])`,
      [id, ids],
    );
  } catch (error) {
    const { code } = error as { code?: string };
    if (code === '23505') throw new ConflictError('A box is in another active request already.');
    throw error;
  }
  await tx.query(
    `UPDATE warehouse_boxes SET status = 'requested', updated_at = now(), updated_by = $2
     WHERE id = ANY ($1::bigint[])`,
    [ids, actor.userId],
  );
  return requestById(tx, id);
}

/** Cancels or completes a request: its boxes leave it, and those not started are staged again. */
export async function closeProductRequest(
  tx: Transaction,
  { actor, meta }: Actor,
  id: number,
  action: 'cancel' | 'complete',
  reason: string | undefined,
): Promise<ProductRequest> {
  await runTransition(tx, productRequestStore, {
    id,
    action,
    actor,
    meta,
    reason: action === 'cancel' ? reason : undefined,
  });
  await tx.query(
    `WITH left_boxes AS (
       UPDATE product_request_boxes SET active = false
       WHERE product_request_id = $1 AND active RETURNING warehouse_box_id)
     UPDATE warehouse_boxes SET status = 'staged', updated_at = now(), updated_by = $2
     WHERE id IN (SELECT warehouse_box_id FROM left_boxes) AND status = 'requested'`,
    [id, actor.userId],
  );
  return requestById(tx, id);
}

// --- Leader console ---

const LEADER_BOX_SELECT = `
  SELECT wb.id, wb.code, r.id AS request_id, r.number AS request_number, ${MODEL_NAME} AS model,
    r.priority,
    count(d.id) FILTER (WHERE d.status = 'received')::int AS waiting,
    count(d.id) FILTER (WHERE d.status = 'in_production')::int AS in_production,
    count(d.id) FILTER (WHERE d.status IN ('graded', 'failed_qc', 'hold'))::int AS done,
    COALESCE((
      SELECT json_agg(json_build_object('worker_id', w.worker_id, 'name', w.name, 'devices', w.devices)
                      ORDER BY w.name)
      FROM (SELECT pa.worker_id, u.name, count(*)::int AS devices
            FROM production_assignments pa
            JOIN devices pd ON pd.id = pa.device_id AND pd.status = 'in_production'
            JOIN users u ON u.id = pa.worker_id
            WHERE pa.warehouse_box_id = wb.id GROUP BY pa.worker_id, u.name) w), '[]'::json) AS workers
  FROM product_request_boxes l
  JOIN product_requests r ON r.id = l.product_request_id
  JOIN device_models m ON m.id = r.model_id
  JOIN warehouse_boxes wb ON wb.id = l.warehouse_box_id
  LEFT JOIN devices d ON d.warehouse_box_id = wb.id
  WHERE l.active`;
const LEADER_BOX_GROUP = 'GROUP BY wb.id, wb.code, r.id, r.number, m.brand_id, m.name, r.priority';

/** The boxes of the approved and started requests, most urgent request first. */
export const leaderBoxes = (db: Db) =>
  db.query<LeaderBox>(
    `${LEADER_BOX_SELECT} ${LEADER_BOX_GROUP}
     ORDER BY array_position(ARRAY['urgent', 'high', 'normal', 'low'], r.priority), r.id, wb.id`,
  );

const leaderBox = async (tx: Transaction, boxId: number) =>
  (
    await tx.query<LeaderBox>(`${LEADER_BOX_SELECT} AND wb.id = $1 ${LEADER_BOX_GROUP}`, [boxId])
  )[0]!;

/** Active users holding the Production Worker role. */
export const productionWorkers = (db: Db) =>
  db.query<{ id: number; label: string }>(
    `SELECT u.id, u.name AS label FROM users u
     WHERE u.status = 'active' AND EXISTS (
       SELECT 1 FROM user_roles ur JOIN roles ro ON ro.id = ur.role_id
       WHERE ur.user_id = u.id AND ro.key = $1)
     ORDER BY u.name, u.id`,
    [PRODUCTION_WORKER_ROLE_KEY],
  );

export async function workerOf(tx: Transaction, workerId: number) {
  const [worker] = await tx.query<{ id: number; name: string }>(
    `SELECT u.id, u.name FROM users u
     WHERE u.id = $1 AND u.status = 'active' AND EXISTS (
       SELECT 1 FROM user_roles ur JOIN roles ro ON ro.id = ur.role_id
       WHERE ur.user_id = u.id AND ro.key = $2)`,
    [workerId, PRODUCTION_WORKER_ROLE_KEY],
  );
  if (!worker)
    throw fieldError('worker_id', 'Choose an active user with the Production Worker role.');
  return worker;
}

/**
 * Hands a box's waiting devices (all, or the first `qty`) to a worker, each received → in
 * production, in one transaction. The box is locked first, so of two leaders handing out the same
 * devices at once the second finds them taken.
 */
export async function assignBox(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof assignmentSchema>,
) {
  const [box] = await tx.query<{
    id: number;
    code: string;
    request_id: number | null;
    request_status: ProductRequestStatus | null;
  }>(
    `SELECT wb.id, wb.code, r.id AS request_id, r.status AS request_status
     FROM warehouse_boxes wb
     LEFT JOIN product_request_boxes l ON l.warehouse_box_id = wb.id AND l.active
     LEFT JOIN product_requests r ON r.id = l.product_request_id
     WHERE wb.id = $1 FOR UPDATE OF wb`,
    [input.warehouse_box_id],
  );
  if (!box) throw new NotFoundError(`There is no warehouse box with id ${input.warehouse_box_id}.`);
  if (box.request_id === null) {
    throw new ConflictError(`${box.code} is in no approved product request.`);
  }
  const worker = await workerOf(tx, input.worker_id);
  const devices = await tx.query<{ id: number }>(
    `SELECT id FROM devices WHERE warehouse_box_id = $1 AND status = 'received'
     ORDER BY id LIMIT $2`,
    [box.id, input.qty ?? null],
  );
  if (devices.length === 0) {
    throw new ConflictError(`Every device of ${box.code} is handed out already.`);
  }
  const deviceIds = devices.map((device) => device.id);
  await applyDeviceAction(tx, actor, meta, {
    deviceIds,
    action: 'start_production',
    ref: { type: 'product_request', id: box.request_id },
    data: { worker_id: worker.id, worker: worker.name },
  });
  await tx.query(
    `INSERT INTO production_assignments
       (device_id, worker_id, product_request_id, warehouse_box_id, assigned_by)
     SELECT unnest($1::bigint[]), $2, $3, $4, $5
     ON CONFLICT (device_id) DO UPDATE SET worker_id = EXCLUDED.worker_id,
       product_request_id = EXCLUDED.product_request_id,
       warehouse_box_id = EXCLUDED.warehouse_box_id,
       assigned_at = now(), assigned_by = EXCLUDED.assigned_by`,
    [deviceIds, worker.id, box.request_id, box.id, actor.userId],
  );
  await tx.query(
    `UPDATE warehouse_boxes SET status = 'in_production', updated_at = now(), updated_by = $2
     WHERE id = $1 AND status = 'requested'`,
    [box.id, actor.userId],
  );
  if (box.request_status === 'approved') {
    await runTransition(tx, productRequestStore, {
      id: box.request_id,
      action: 'start',
      actor,
      meta,
    });
  }
  return { devices: deviceIds.length, device_ids: deviceIds, box: await leaderBox(tx, box.id) };
}

/**
 * Moves devices still in production to another worker: those named, or a box's (all, or those of
 * one worker). The rows are locked in device order and, with `from_worker_id`, taken only while
 * still with that worker, so of two leaders moving the same devices at once the second finds
 * them moved (409). Each move is on the device's timeline and in the audit log.
 */
export async function reassignDevices(
  tx: Transaction,
  { actor, meta }: Actor,
  input: z.output<typeof reassignmentSchema>,
) {
  if (!input.device_ids && input.warehouse_box_id === undefined) {
    throw fieldError('device_ids', 'Choose the devices to reassign, or a box.');
  }
  if (input.from_worker_id === input.worker_id) {
    throw fieldError('worker_id', 'Choose another worker than the one who has them.');
  }
  const worker = await workerOf(tx, input.worker_id);
  let box: { code: string } | undefined;
  if (input.warehouse_box_id !== undefined) {
    [box] = await tx.query<{ code: string }>('SELECT code FROM warehouse_boxes WHERE id = $1', [
      input.warehouse_box_id,
    ]);
    if (!box) {
      throw new NotFoundError(`There is no warehouse box with id ${input.warehouse_box_id}.`);
    }
  }
  const moved = await tx.query<{ device_id: number; from_worker: number }>(
    `WITH locked AS (
       SELECT pa.device_id, pa.worker_id FROM production_assignments pa
       JOIN devices d ON d.id = pa.device_id AND d.status = 'in_production'
       WHERE ($1::bigint[] IS NULL OR pa.device_id = ANY ($1::bigint[]))
         AND ($4::bigint IS NULL OR pa.warehouse_box_id = $4)
         AND ($5::bigint IS NULL OR pa.worker_id = $5)
       ORDER BY pa.device_id FOR UPDATE OF pa)
     UPDATE production_assignments pa SET worker_id = $2, assigned_at = now(), assigned_by = $3
     FROM locked WHERE pa.device_id = locked.device_id
     RETURNING pa.device_id, locked.worker_id AS from_worker`,
    [
      input.device_ids ?? null,
      worker.id,
      actor.userId,
      input.warehouse_box_id ?? null,
      input.from_worker_id ?? null,
    ],
  );
  const whose = input.from_worker_id === undefined ? '' : ' with that worker';
  if (input.device_ids) {
    const wanted = new Set(input.device_ids).size;
    if (moved.length < wanted) {
      throw new ConflictError(
        `${wanted - moved.length} of the devices are not in production${whose}${box ? ` in ${box.code}` : ''}: only devices in production move between workers.`,
      );
    }
  } else if (moved.length === 0) {
    throw new ConflictError(`${box!.code} has no device in production${whose} to move.`);
  }
  await tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, data)
     SELECT m.device_id, $2, $3, 'reassigned',
       jsonb_build_object('worker_id', $4::bigint, 'worker', $5::text, 'from_worker', u.name)
     FROM unnest($1::bigint[], $6::bigint[]) AS m (device_id, from_worker)
     JOIN users u ON u.id = m.from_worker`,
    [
      moved.map((row) => row.device_id),
      actor.userId,
      actor.userName,
      worker.id,
      worker.name,
      moved.map((row) => row.from_worker),
    ],
  );
  await recordAudits(
    tx,
    { ...auditActor(actor, meta), action: 'device.reassigned', entityType: 'device' },
    moved.map((row) => ({
      entityId: row.device_id,
      before: { worker_id: row.from_worker },
      after: { worker_id: worker.id },
    })),
  );
  return { devices: moved.length };
}

// --- Worker station reads ---

export const WORKER_DEVICE_SELECT = `
  SELECT d.id, d.identifier, d.status, d.hold_reason, ${MODEL_NAME} AS model,
    CASE WHEN tm.id IS NOT NULL THEN ${modelName('tm')} END AS tac_model,
    t.capacity_gb AS tac_capacity_gb,
    CASE WHEN ii.id IS NULL THEN NULL ELSE json_build_object(
      'model', CASE WHEN cm.id IS NOT NULL THEN ${modelName('cm')} END, 'color', cc.name, 'capacity_gb', ii.capacity_gb, 'grade', ii.grade) END AS claimed,
    d.color_id, d.capacity_gb, d.grade, d.blacklist_state, wb.code AS box,
    to_json(pa.assigned_at) #>> '{}' AS assigned_at
  FROM devices d
  JOIN device_models m ON m.id = d.model_id
  LEFT JOIN tac_numbers t ON t.tac = d.tac
  LEFT JOIN device_models tm ON tm.id = t.model_id
  LEFT JOIN LATERAL (SELECT * FROM invoice_imeis i WHERE i.device_id = d.id
                     ORDER BY i.id DESC LIMIT 1) ii ON true
  LEFT JOIN device_models cm ON cm.id = ii.model_id
  LEFT JOIN colors cc ON cc.id = ii.color_id
  LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
  LEFT JOIN production_assignments pa ON pa.device_id = d.id`;

/** The caller's devices in production, oldest assignment first. */
export const workerQueue = (db: Db, workerId: number) =>
  db.query<WorkerDevice>(
    `${WORKER_DEVICE_SELECT}
     WHERE pa.worker_id = $1 AND d.status = 'in_production'
     ORDER BY pa.assigned_at, d.id LIMIT 500`,
    [workerId],
  );

type ScannedDevice = WorkerDevice & { worker_id: number | null; worker_name: string | null };

/** A device by its IMEI (or second IMEI, or MEID) with who holds it in production. */
export async function scannedDevice(db: Db | Transaction, code: string, lock = false) {
  const [device] = await db.query<ScannedDevice>(
    `SELECT s.*, pa.worker_id, u.name AS worker_name FROM (${WORKER_DEVICE_SELECT}
       WHERE d.id = (SELECT id FROM devices WHERE identifier = $1 OR imei2 = $1 LIMIT 1)) s
     LEFT JOIN production_assignments pa ON pa.device_id = s.id
     LEFT JOIN users u ON u.id = pa.worker_id`,
    [code.trim().toUpperCase()],
  );
  if (lock && device) await db.query('SELECT 1 FROM devices WHERE id = $1 FOR UPDATE', [device.id]);
  return device;
}

/** What a scan finds of the device; the route adds the diagnostic results waiting for it. */
export type ScanFinding = Omit<WorkerScan, 'diagnostics'>;

/**
 * What the worker's scan finds: a device of the caller's queue is ready; one graded, failed or
 * held in production says so (a repeated scan); anything else is refused with the reason.
 */
export function scanAnswer(
  device: ScannedDevice | undefined,
  code: string,
  me: Principal,
): ScanFinding {
  if (!device) throw new NotFoundError(`No device has the IMEI ${code}.`);
  const { worker_id: workerId, worker_name: workerName, ...shown } = device;
  if (workerId !== null && device.status !== 'in_production') {
    const result =
      device.status === 'graded'
        ? 'already_graded'
        : device.status === 'failed_qc'
          ? 'already_failed'
          : device.status === 'hold'
            ? 'on_hold'
            : null;
    if (result) {
      const words = {
        already_graded: `graded ${device.grade ?? ''} already`.trim(),
        already_failed: 'failed QC already',
        on_hold: `on hold (${device.hold_reason})`,
      }[result];
      return { result, message: `${device.identifier} is ${words}.`, device: shown };
    }
  }
  if (device.status !== 'in_production' || workerId === null) {
    throw new ConflictError(
      `${device.identifier} is ${device.status.replace(/_/g, ' ')}, not in production: ask your leader to assign it.`,
    );
  }
  if (workerId !== me.userId) {
    throw new ConflictError(`${device.identifier} is in ${workerName}'s queue, not yours.`);
  }
  return {
    result: 'ready',
    message: `${device.identifier}: test, wipe and grade it.`,
    device: shown,
  };
}
