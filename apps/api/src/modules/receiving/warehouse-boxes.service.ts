import {
  warehouseBoxForm,
  warehouseBoxList,
  WAREHOUSE_BOX_OVERRIDE_PERMISSION,
  type BoxContent,
  type BoxCounts,
  type FieldErrors,
  type WarehouseBox,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../http/errors.js';
import type { ListSql } from '../../toolkit/list.js';
import type {
  ListQueryOf,
  ListStore,
  Prepared,
  ResourceFieldsOf,
  WriteInput,
  WriteStore,
} from '../../toolkit/resource.js';
import { preparedOf } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import { holdsAdministrator, type Principal, type RequestMeta } from '../../http/principal.js';
import { markReceivedWhenComplete } from './invoices.service.js';
import { SHIPMENT_LABEL } from './pickers.js';

const BOX_FROM = `warehouse_boxes wb
  JOIN purchase_invoices i ON i.id = wb.invoice_id
  JOIN vendors v ON v.id = i.vendor_id
  LEFT JOIN device_models m ON m.id = wb.expected_model_id
  LEFT JOIN brands b ON b.id = m.brand_id
  LEFT JOIN users cu ON cu.id = wb.closed_by`;

/**
 * The box row. Its discrepancies are counted by the function the scan's answer counts them with
 * (migration 0020); the box list is still read every time, as warehouse_boxes has no data version
 * (decision 0010).
 */
const BOX_COLUMNS = `wb.id, wb.code, wb.invoice_id, i.invoice_no, i.vendor_id, v.name AS vendor,
  wb.inbound_shipment_id, (SELECT ${SHIPMENT_LABEL} FROM inbound_shipments s
    JOIN vendors sv ON sv.id = s.vendor_id LEFT JOIN purchase_invoices si ON si.id = s.invoice_id
    WHERE s.id = wb.inbound_shipment_id) AS inbound_shipment, wb.vendor_label, wb.expected_model_id,
  CASE WHEN m.id IS NOT NULL THEN ${MODEL_DISPLAY_NAME} END AS expected_model, wb.qty_expected,
  wb.qty_scanned, box_discrepancies(wb.id) AS discrepancies, wb.status, wb.staging_location,
  to_json(wb.closed_at) #>> '{}' AS closed_at, cu.name AS closed_by_name, wb.close_override_reason,
  to_json(wb.created_at) #>> '{}' AS created_at, to_json(wb.updated_at) #>> '{}' AS updated_at`;

/**
 * A box's invoice must be open, its shipment that invoice's vendor's, its expected model active;
 * a box's invoice is fixed once devices are in it, and only a receiving box changes.
 */
async function prepareBoxes(
  inputs: readonly WriteInput<ResourceFieldsOf<typeof warehouseBoxForm>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const { input, id } of inputs) {
    const errors: FieldErrors = {};
    if (id !== null) {
      const [box] = await db.query<{ status: string; qty_scanned: number; invoice_id: number }>(
        'SELECT status, qty_scanned, invoice_id FROM warehouse_boxes WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (box && box.status !== 'receiving') {
        throw new ConflictError('Only a box that is receiving can change: reopen it first.');
      }
      if (
        box &&
        box.qty_scanned > 0 &&
        input.invoice_id !== undefined &&
        input.invoice_id !== box.invoice_id
      ) {
        errors.invoice_id = ['Devices are in this box: its invoice cannot change.'];
      }
    }
    const [found] = await db.query<{
      invoice: string | null;
      shipment: string | null;
      model: boolean | null;
    }>(
      `SELECT
         (SELECT status FROM purchase_invoices WHERE id = $1) AS invoice,
         (SELECT CASE WHEN s.invoice_id IS NULL OR s.invoice_id = $1 THEN 'ok' ELSE 'other' END
            FROM inbound_shipments s WHERE s.id = $2) AS shipment,
         (SELECT active FROM device_models WHERE id = $3) AS model`,
      [
        input.invoice_id ?? null,
        input.inbound_shipment_id ?? null,
        input.expected_model_id ?? null,
      ],
    );
    if (input.invoice_id != null) {
      if (!found!.invoice) errors.invoice_id = [`There is no invoice with id ${input.invoice_id}.`];
      else if (found!.invoice === 'closed') errors.invoice_id = ['This invoice is closed.'];
    }
    if (input.inbound_shipment_id != null) {
      if (!found!.shipment) {
        errors.inbound_shipment_id = [`There is no shipment with id ${input.inbound_shipment_id}.`];
      } else if (found!.shipment === 'other') {
        errors.inbound_shipment_id = ['This shipment belongs to another invoice.'];
      }
    }
    if (input.expected_model_id != null && !found!.model) {
      errors.expected_model_id = ['Choose an active model.'];
    }
    prepared.push(preparedOf(input, errors));
  }
  return prepared;
}

const boxList: ListSql<ListQueryOf<typeof warehouseBoxList>> = {
  from: BOX_FROM,
  id: 'wb.id',
  columns: BOX_COLUMNS,
  sorts: {
    created_at: { sql: 'wb.created_at', type: 'timestamptz' },
    code: { sql: 'wb.code', type: 'text' },
  },
  search: (pattern) => [
    '(wb.code ILIKE ? OR wb.vendor_label ILIKE ? OR i.invoice_no ILIKE ?)',
    pattern,
    pattern,
    pattern,
  ],
  filters: (query) => [
    query.status !== undefined && ['wb.status = ?', query.status],
    query.invoice_id !== undefined && ['wb.invoice_id = ?', query.invoice_id],
    query.vendor_id !== undefined && ['i.vendor_id = ?', query.vendor_id],
  ],
};

export const warehouseBoxListStore: ListStore<typeof warehouseBoxList> = {
  contract: warehouseBoxList,
  list: boxList,
};

export const warehouseBoxWriteStore: WriteStore<typeof warehouseBoxForm> = {
  contract: warehouseBoxForm,
  table: 'warehouse_boxes',
  entity: 'warehouse_box',
  list: boxList,
  uniques: {},
  references: [
    { label: 'devices', countSql: 'SELECT count(*) FROM devices WHERE warehouse_box_id = $1' },
  ],
  prepare: prepareBoxes,
};

export async function findBox(db: Queryable, id: number, lock = false): Promise<WarehouseBox> {
  if (lock) await db.query('SELECT 1 FROM warehouse_boxes WHERE id = $1 FOR UPDATE', [id]);
  const [box] = await db.query<WarehouseBox>(
    `SELECT ${BOX_COLUMNS} FROM ${BOX_FROM} WHERE wb.id = $1`,
    [id],
  );
  if (!box) throw new NotFoundError(`There is no warehouse box with id ${id}.`);
  return box;
}

const mayOverride = (actor: Principal) =>
  holdsAdministrator(actor) ||
  actor.permissions.some((name) => name.toLowerCase() === WAREHOUSE_BOX_OVERRIDE_PERMISSION);

async function auditBox(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  verb: string,
  before: WarehouseBox,
  after: WarehouseBox,
) {
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: `warehouse_box.${verb}`,
    entityType: 'warehouse_box',
    entityId: after.id,
    before: { status: before.status, qty_scanned: before.qty_scanned },
    after: {
      status: after.status,
      qty_scanned: after.qty_scanned,
      staging_location: after.staging_location,
      close_override_reason: after.close_override_reason,
    },
  });
}

/**
 * Closes a receiving box. When its count differs from the expected one, only a manager (with
 * warehouse-box.override) closes it, and says why.
 */
export async function closeBox(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  overrideReason: string | null,
): Promise<WarehouseBox> {
  const before = await findBox(tx, id, true);
  if (before.status !== 'receiving')
    throw new ConflictError(`Box ${before.code} is closed already.`);
  if (before.qty_scanned === 0) {
    throw new ConflictError(`Box ${before.code} is empty: scan devices into it, or delete it.`);
  }
  const differs = before.qty_expected !== null && before.qty_expected !== before.qty_scanned;
  if (differs) {
    const counts = `${before.qty_scanned} scanned of ${before.qty_expected} expected`;
    if (!mayOverride(actor)) {
      throw new ForbiddenError(
        { permission: WAREHOUSE_BOX_OVERRIDE_PERMISSION },
        `${counts}: a manager closes this box, with a reason.`,
      );
    }
    if (!overrideReason) {
      throw new ConflictError(`${counts}: say why the box is closed anyway.`);
    }
  }
  await tx.query(
    `UPDATE warehouse_boxes SET status = 'received', closed_at = now(), closed_by = $2,
       close_override_reason = $3, updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [id, actor.userId, differs ? overrideReason : null],
  );
  await markReceivedWhenComplete(tx, before.invoice_id);
  const after = await findBox(tx, id);
  await auditBox(tx, actor, meta, 'closed', before, after);
  return after;
}

/** Reopens a closed box to scan more into it: a manager's step (its guard says so). */
export async function reopenBox(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<WarehouseBox> {
  const before = await findBox(tx, id, true);
  if (before.status !== 'received' && before.status !== 'staged') {
    throw new ConflictError(`Box ${before.code} is ${before.status}: it cannot be reopened.`);
  }
  const [invoice] = await tx.query<{ status: string }>(
    'SELECT status FROM purchase_invoices WHERE id = $1',
    [before.invoice_id],
  );
  if (invoice!.status === 'closed') throw new ConflictError('Its invoice is closed.');
  await tx.query(
    `UPDATE warehouse_boxes SET status = 'receiving', closed_at = NULL, closed_by = NULL,
       close_override_reason = NULL, staging_location = NULL, staged_at = NULL,
       updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [id, actor.userId],
  );
  await tx.query(
    `UPDATE purchase_invoices SET status = 'receiving', updated_at = now()
     WHERE id = $1 AND status = 'received'`,
    [before.invoice_id],
  );
  const after = await findBox(tx, id);
  await auditBox(tx, actor, meta, 'reopened', before, after);
  return after;
}

/** Puts a closed box at a staging location (or moves it to another). */
export async function stageBox(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  location: string,
): Promise<WarehouseBox> {
  const before = await findBox(tx, id, true);
  if (before.status !== 'received' && before.status !== 'staged') {
    throw new ConflictError(
      before.status === 'receiving'
        ? `Close box ${before.code} before staging it.`
        : `Box ${before.code} is ${before.status.replace('_', ' ')}: it has left staging.`,
    );
  }
  await tx.query(
    `UPDATE warehouse_boxes SET status = 'staged', staging_location = $2, staged_at = now(),
       updated_at = now(), updated_by = $3
     WHERE id = $1`,
    [id, location.toUpperCase(), actor.userId],
  );
  const after = await findBox(tx, id);
  await auditBox(tx, actor, meta, 'staged', before, after);
  return after;
}

/** How the scan that received a device answered, read back from what it wrote. */
const RESULT_SQL = `CASE WHEN d.hold_reason = 'blacklist' THEN 'blacklisted'
  WHEN ii.match_status = 'unexpected' THEN 'unexpected'
  WHEN ii.tac_model_id IS NOT NULL AND ii.model_id IS NOT NULL AND ii.tac_model_id <> ii.model_id
    THEN 'model_mismatch'
  ELSE 'added' END`;

const SCANNED_DEVICE_COLUMNS = `d.id, d.imei, d.imei2, d.meid, ${MODEL_DISPLAY_NAME} AS model,
  c.name AS color, d.capacity_gb, d.status, d.hold_reason,
  to_json(d.received_at) #>> '{}' AS received_at`;

/**
 * A box and its devices, newest first: what a station shows, also after a reload. Devices scanned
 * at the box that went to quarantine are listed apart, so the box's count and list stay what is
 * physically in it and a supervisor still sees what its carton held (migration 0014).
 */
export async function boxContent(db: Queryable, id: number): Promise<BoxContent> {
  const box = await findBox(db, id);
  const [devices, quarantined] = await Promise.all([
    db.query<BoxContent['devices'][number]>(
      `SELECT ${SCANNED_DEVICE_COLUMNS}, ${RESULT_SQL} AS result,
         (wb.status = 'receiving' AND receipt_undoable(d.id)) AS undoable
       FROM devices d
       JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
       JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
       LEFT JOIN colors c ON c.id = d.color_id
       LEFT JOIN invoice_imeis ii ON ii.device_id = d.id AND ii.invoice_id = d.invoice_id
       WHERE d.warehouse_box_id = $1
       ORDER BY d.received_at DESC, d.id DESC LIMIT 5000`,
      [id],
    ),
    db.query<BoxContent['quarantined'][number]>(
      `SELECT ${SCANNED_DEVICE_COLUMNS}
       FROM devices d
       JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
       LEFT JOIN colors c ON c.id = d.color_id
       WHERE d.invoice_id = $1 AND d.status = 'hold' AND d.warehouse_box_id IS NULL
         AND EXISTS (SELECT 1 FROM device_events e WHERE e.device_id = d.id
                     AND e.type = 'received' AND e.data->>'scanned_at_box' = $2)
       ORDER BY d.received_at DESC, d.id DESC`,
      [box.invoice_id, box.code],
    ),
  ]);
  return { box, devices, quarantined };
}

/**
 * Takes back a device scanned into a receiving box by mistake, when nothing but receiving has
 * happened to it: the device leaves the registry, its manifest row expects it again (a row the
 * scan added goes), and the audit log keeps the undo.
 */
export async function undoReceive(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  boxId: number,
  deviceId: number,
) {
  const box = await findBox(tx, boxId, true);
  if (box.status !== 'receiving') throw new ConflictError(`Box ${box.code} is closed.`);
  const [device] = await tx.query<{
    identifier: string;
    box: number | null;
    undoable: boolean;
  }>(
    `SELECT d.identifier, d.warehouse_box_id AS box, receipt_undoable(d.id) AS undoable
     FROM devices d WHERE d.id = $1 FOR UPDATE`,
    [deviceId],
  );
  if (!device || device.box !== boxId) {
    throw new NotFoundError(`Box ${box.code} holds no device with id ${deviceId}.`);
  }
  if (!device.undoable) {
    throw new ConflictError(`${device.identifier} has moved on since it was received: it stays.`);
  }
  await tx.query(`DELETE FROM invoice_imeis WHERE device_id = $1 AND NOT from_manifest`, [
    deviceId,
  ]);
  await tx.query(
    `UPDATE invoice_imeis SET match_status = 'expected', device_id = NULL, updated_at = now(),
       updated_by = $2
     WHERE device_id = $1`,
    [deviceId, actor.userId],
  );
  await tx.query('DELETE FROM devices WHERE id = $1', [deviceId]);
  const [counts] = await tx.query<BoxCounts>(
    `UPDATE warehouse_boxes SET qty_scanned = qty_scanned - 1, updated_at = now(), updated_by = $2
     WHERE id = $1
     RETURNING id, code, status, qty_scanned, qty_expected, box_discrepancies(id) AS discrepancies`,
    [boxId, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'device.receive_undone',
    entityType: 'device',
    entityId: deviceId,
    before: { identifier: device.identifier, box: box.code },
  });
  return counts!;
}
