import {
  normaliseScan,
  parseDeviceId,
  VENDOR_RETURNABLE_STATUSES,
  vendorTransferForm,
  vendorTransferList,
  type DeviceStatus,
  type FieldErrors,
  type TransferDevice,
  type TransferStep,
  type VendorTransfer,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../http/errors.js';
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
import { applyDeviceAction } from '../devices/index.js';
import { inventoryBoxCodeOf } from '../inventory/index.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';
import type { Principal, RequestMeta } from '../../http/principal.js';

const TRANSFER_FROM = `vendor_transfers t
  JOIN vendors v ON v.id = t.vendor_id
  LEFT JOIN purchase_invoices i ON i.id = t.invoice_id`;

const TRANSFER_COLUMNS = `t.id, t.code, t.vendor_id, v.name AS vendor, t.invoice_id, i.invoice_no,
  t.reason, t.status,
  (SELECT count(*) FROM vendor_transfer_devices td WHERE td.transfer_id = t.id AND td.active)::int
    AS device_count,
  COALESCE((SELECT sum(td.unit_cost_cents) FROM vendor_transfer_devices td
            WHERE td.transfer_id = t.id AND td.active), 0)::float8 AS devices_cost_cents,
  t.carrier, t.tracking, t.credit_cents::float8 AS credit_cents, t.notes,
  to_json(t.shipped_at) #>> '{}' AS shipped_at,
  to_json(t.received_by_vendor_at) #>> '{}' AS received_by_vendor_at,
  to_json(t.credited_at) #>> '{}' AS credited_at, to_json(t.created_at) #>> '{}' AS created_at,
  to_json(t.updated_at) #>> '{}' AS updated_at`;

const transferList: ListSql<ListQueryOf<typeof vendorTransferList>> = {
  from: TRANSFER_FROM,
  id: 't.id',
  columns: TRANSFER_COLUMNS,
  sorts: {
    created_at: { sql: 't.created_at', type: 'timestamptz' },
    code: { sql: 't.code', type: 'text' },
  },
  search: (pattern) => [
    '(t.code ILIKE ? OR t.tracking ILIKE ? OR v.name ILIKE ?)',
    pattern,
    pattern,
    pattern,
  ],
  filters: (query) => [
    query.status !== undefined && ['t.status = ?', query.status],
    query.vendor_id !== undefined && ['t.vendor_id = ?', query.vendor_id],
    query.reason !== undefined && ['t.reason = ?', query.reason],
  ],
};

export const vendorTransferListStore: ListStore<typeof vendorTransferList> = {
  contract: vendorTransferList,
  list: transferList,
};

/** A transfer's vendor is active; its invoice, if any, that vendor's; only a draft changes. */
async function prepareTransfers(
  inputs: readonly WriteInput<ResourceFieldsOf<typeof vendorTransferForm>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const { input, id } of inputs) {
    const errors: FieldErrors = {};
    if (id !== null) {
      const [current] = await db.query<{ status: string }>(
        'SELECT status FROM vendor_transfers WHERE id = $1 FOR UPDATE',
        [id],
      );
      if (current && !['draft', 'packed'].includes(current.status)) {
        throw new ConflictError(
          `A return that is ${current.status.replace(/_/g, ' ')} cannot change.`,
        );
      }
    } else {
      const [found] = await db.query<{ vendor: boolean | null; invoice_vendor: number | null }>(
        `SELECT (SELECT active FROM vendors WHERE id = $1) AS vendor,
           (SELECT vendor_id FROM purchase_invoices WHERE id = $2) AS invoice_vendor`,
        [input.vendor_id, input.invoice_id ?? null],
      );
      if (!found!.vendor) errors.vendor_id = ['Choose an active vendor.'];
      if (input.invoice_id != null && found!.invoice_vendor !== input.vendor_id) {
        errors.invoice_id = ["Choose one of this vendor's invoices."];
      }
    }
    prepared.push(preparedOf(input, errors));
  }
  return prepared;
}

export const vendorTransferWriteStore: WriteStore<typeof vendorTransferForm> = {
  contract: vendorTransferForm,
  table: 'vendor_transfers',
  entity: 'vendor_transfer',
  list: transferList,
  uniques: {},
  references: [
    {
      label: 'devices',
      countSql: 'SELECT count(*) FROM vendor_transfer_devices WHERE transfer_id = $1',
    },
  ],
  prepare: prepareTransfers,
};

export async function findTransfer(
  db: Queryable,
  id: number,
  lock = false,
): Promise<VendorTransfer> {
  if (lock) await db.query('SELECT 1 FROM vendor_transfers WHERE id = $1 FOR UPDATE', [id]);
  const [transfer] = await db.query<VendorTransfer>(
    `SELECT ${TRANSFER_COLUMNS} FROM ${TRANSFER_FROM} WHERE t.id = $1`,
    [id],
  );
  if (!transfer) throw new NotFoundError(`There is no return to vendor with id ${id}.`);
  return transfer;
}

/** The devices on a transfer, as they are now, with the box to take each from. */
export function transferDevices(db: Queryable, id: number): Promise<TransferDevice[]> {
  return db.query<TransferDevice>(
    `SELECT d.id AS device_id, d.imei, d.meid, ${MODEL_DISPLAY_NAME} AS model, d.status,
       d.hold_reason, COALESCE(${inventoryBoxCodeOf('d.inventory_box_id')}, wb.code) AS container, td.unit_cost_cents::float8 AS unit_cost_cents,
       to_json(td.added_at) #>> '{}' AS added_at
     FROM vendor_transfer_devices td
     JOIN devices d ON d.id = td.device_id
     JOIN device_models m ON m.id = d.model_id JOIN brands b ON b.id = m.brand_id
     LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
     WHERE td.transfer_id = $1 AND td.active ORDER BY td.added_at, d.id`,
    [id],
  );
}

type Candidate = {
  id: number;
  identifier: string;
  imei: string | null;
  imei2: string | null;
  meid: string | null;
  vendor_id: number | null;
  status: DeviceStatus;
  unit_cost_cents: number | null;
  on_transfer: string | null;
};

/**
 * Adds devices to a draft return, by scanned code or by id. Each must be the transfer's vendor's,
 * in stock (held devices too: sending them back is what a hold may end in) and on no other live
 * transfer; any that is not makes the whole call a 422 that names it.
 */
export async function addTransferDevices(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: { codes: readonly string[]; device_ids: readonly number[] },
): Promise<VendorTransfer> {
  const transfer = await findTransfer(tx, id, true);
  if (transfer.status !== 'draft') {
    throw new ConflictError(
      'Devices are added to a draft return only: this one is packed already.',
    );
  }
  const codes = input.codes.map((code) => {
    const parsed = parseDeviceId(normaliseScan(code));
    return parsed.ok ? parsed.value.value : normaliseScan(code);
  });
  if (codes.length === 0 && input.device_ids.length === 0) {
    throw fieldError('codes', 'Scan or choose at least one device.');
  }
  const found = await tx.query<Candidate>(
    `SELECT d.id, d.identifier, d.imei, d.imei2, d.meid, d.vendor_id, d.status,
       d.unit_cost_cents::float8 AS unit_cost_cents,
       (SELECT vt.code FROM vendor_transfer_devices o JOIN vendor_transfers vt ON vt.id = o.transfer_id
        WHERE o.device_id = d.id AND o.active AND o.transfer_id <> $3) AS on_transfer
     FROM devices d
     WHERE d.imei = ANY ($1::text[]) OR d.imei2 = ANY ($1::text[]) OR d.meid = ANY ($1::text[])
        OR d.id = ANY ($2::bigint[])
     ORDER BY d.id
     FOR UPDATE OF d`,
    [codes, input.device_ids, id],
  );
  const problems: string[] = [];
  const knownCodes = new Set(found.flatMap((device) => [device.imei, device.imei2, device.meid]));
  for (const code of codes) if (!knownCodes.has(code)) problems.push(`${code}: no such device.`);
  const knownIds = new Set(found.map((device) => device.id));
  for (const deviceId of input.device_ids) {
    if (!knownIds.has(deviceId)) problems.push(`device ${deviceId}: no such device.`);
  }
  const returnable = VENDOR_RETURNABLE_STATUSES as readonly DeviceStatus[];
  for (const device of found) {
    if (device.vendor_id !== transfer.vendor_id) {
      problems.push(`${device.identifier}: bought from another vendor.`);
    } else if (!returnable.includes(device.status)) {
      problems.push(`${device.identifier}: ${device.status.replace(/_/g, ' ')}, not in stock.`);
    } else if (device.on_transfer) {
      problems.push(`${device.identifier}: on ${device.on_transfer} already.`);
    }
  }
  if (problems.length > 0) throw new ValidationError({ codes: problems.slice(0, 50) });
  await tx.query(
    `INSERT INTO vendor_transfer_devices (transfer_id, device_id, unit_cost_cents, added_by)
     SELECT $1, d.id, d.unit_cost_cents, $3 FROM devices d WHERE d.id = ANY ($2::bigint[])
     ON CONFLICT (transfer_id, device_id) DO UPDATE SET active = true`,
    [id, found.map((device) => device.id), actor.userId],
  );
  const after = await findTransfer(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'vendor_transfer.devices_added',
    entityType: 'vendor_transfer',
    entityId: id,
    after: { devices: found.map((device) => device.identifier), device_count: after.device_count },
  });
  return after;
}

/** Takes a device off a draft return. */
export async function removeTransferDevice(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  deviceId: number,
): Promise<VendorTransfer> {
  const transfer = await findTransfer(tx, id, true);
  if (transfer.status !== 'draft') {
    throw new ConflictError('Devices come off a draft return only: this one is packed already.');
  }
  const removed = await tx.query(
    'DELETE FROM vendor_transfer_devices WHERE transfer_id = $1 AND device_id = $2 RETURNING device_id',
    [id, deviceId],
  );
  if (removed.length === 0) throw new NotFoundError(`This return holds no device ${deviceId}.`);
  const after = await findTransfer(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'vendor_transfer.device_removed',
    entityType: 'vendor_transfer',
    entityId: id,
    after: { device_id: deviceId, device_count: after.device_count },
  });
  return after;
}

/** Where each step may start, the status it leads to, and the step in words. */
const STEPS: Record<
  TransferStep,
  { from: readonly string[]; to: string; done: string; column?: string }
> = {
  pack: { from: ['draft'], to: 'packed', done: 'packed' },
  ship: { from: ['packed'], to: 'shipped', done: 'shipped', column: 'shipped_at' },
  'confirm-receipt': {
    from: ['shipped'],
    to: 'received_by_vendor',
    done: 'confirmed as received',
    column: 'received_by_vendor_at',
  },
  credit: {
    from: ['shipped', 'received_by_vendor'],
    to: 'credited',
    done: 'credited',
    column: 'credited_at',
  },
  cancel: { from: ['draft', 'packed'], to: 'cancelled', done: 'cancelled' },
};

/**
 * Moves a return on. Shipping sends its devices to the vendor (status rtv, out of their boxes)
 * and settles their invoice discrepancies as returned to the vendor.
 */
export async function stepTransfer(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  step: TransferStep,
  input: {
    carrier?: string | null | undefined;
    tracking?: string | null | undefined;
    credit_cents?: number | undefined;
  },
): Promise<VendorTransfer> {
  const before = await findTransfer(tx, id, true);
  const rule = STEPS[step];
  if (!rule.from.includes(before.status)) {
    throw new ConflictError(
      `A return that is ${before.status.replace(/_/g, ' ')} cannot be ${rule.done}.`,
    );
  }
  if (step === 'pack' && before.device_count === 0) {
    throw new ConflictError('Add the devices to return before packing.');
  }
  const tracking = input.tracking ?? before.tracking;
  if (step === 'ship' && !tracking) throw fieldError('tracking', 'Enter the tracking number.');
  if (step === 'credit' && input.credit_cents === undefined) {
    throw fieldError('credit_cents', "Enter the vendor's credit.");
  }
  if (step === 'ship') {
    const devices = await tx.query<{ device_id: number }>(
      'SELECT device_id FROM vendor_transfer_devices WHERE transfer_id = $1 AND active',
      [id],
    );
    const ids = devices.map((device) => device.device_id);
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: ids,
      action: 'return_to_vendor',
      ref: { type: 'vendor_transfer', id },
      data: { transfer: before.code, tracking },
    });
    await tx.query(
      `UPDATE invoice_imeis SET decision = 'return_to_vendor', decision_note = $2,
         decided_at = now(), decided_by = $3, updated_at = now(), updated_by = $3
       WHERE device_id = ANY ($1::bigint[]) AND decision IS NULL`,
      [ids, `Returned on ${before.code}`, actor.userId],
    );
  }
  if (step === 'cancel') {
    await tx.query('UPDATE vendor_transfer_devices SET active = false WHERE transfer_id = $1', [
      id,
    ]);
  }
  await tx.query(
    `UPDATE vendor_transfers SET status = $2, carrier = COALESCE($3, carrier),
       tracking = COALESCE($4, tracking), credit_cents = COALESCE($5, credit_cents),
       ${rule.column ? `${rule.column} = now(),` : ''} updated_at = now(), updated_by = $6
     WHERE id = $1`,
    [
      id,
      rule.to,
      input.carrier ?? null,
      input.tracking ?? null,
      input.credit_cents ?? null,
      actor.userId,
    ],
  );
  const after = await findTransfer(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: `vendor_transfer.${rule.to}`,
    entityType: 'vendor_transfer',
    entityId: id,
    before: { status: before.status },
    after: { status: after.status, tracking: after.tracking, credit_cents: after.credit_cents },
  });
  return after;
}
