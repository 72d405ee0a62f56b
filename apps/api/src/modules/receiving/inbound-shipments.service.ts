import {
  inboundShipmentForm,
  inboundShipmentList,
  type CheckInInput,
  type FieldErrors,
  type InboundShipment,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
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
import type { Principal, RequestMeta } from '../../http/principal.js';

const SHIPMENT_FROM = `inbound_shipments s
  JOIN vendors v ON v.id = s.vendor_id
  LEFT JOIN purchase_invoices i ON i.id = s.invoice_id
  LEFT JOIN users cu ON cu.id = s.checked_in_by`;

const SHIPMENT_COLUMNS = `s.id, s.vendor_id, v.name AS vendor, s.invoice_id, i.invoice_no, s.carrier,
  s.tracking, s.pallets_expected, s.boxes_expected, to_char(s.eta, 'YYYY-MM-DD') AS eta, s.status,
  to_json(s.arrived_at) #>> '{}' AS arrived_at, cu.name AS checked_in_by_name, s.pallets_received,
  s.boxes_received,
  (SELECT count(*) FROM warehouse_boxes wb WHERE wb.inbound_shipment_id = s.id)::int AS warehouse_boxes,
  s.damaged, s.damage_notes, s.notes, to_json(s.received_at) #>> '{}' AS received_at,
  to_json(s.created_at) #>> '{}' AS created_at, to_json(s.updated_at) #>> '{}' AS updated_at`;

const shipmentList: ListSql<ListQueryOf<typeof inboundShipmentList>> = {
  from: SHIPMENT_FROM,
  id: 's.id',
  columns: SHIPMENT_COLUMNS,
  sorts: {
    eta: { sql: "COALESCE(s.eta, DATE '9999-12-31')", type: 'date' },
    created_at: { sql: 's.created_at', type: 'timestamptz' },
  },
  search: (pattern) => [
    '(s.tracking ILIKE ? OR s.carrier ILIKE ? OR v.name ILIKE ? OR i.invoice_no ILIKE ?)',
    pattern,
    pattern,
    pattern,
    pattern,
  ],
  filters: (query) => [
    query.status !== undefined && ['s.status = ?', query.status],
    query.vendor_id !== undefined && ['s.vendor_id = ?', query.vendor_id],
    query.invoice_id !== undefined && ['s.invoice_id = ?', query.invoice_id],
  ],
};

export const inboundShipmentListStore: ListStore<typeof inboundShipmentList> = {
  contract: inboundShipmentList,
  list: shipmentList,
};

/** A shipment's vendor is active and its invoice, if linked, that vendor's and not closed. */
async function prepareShipments(
  inputs: readonly WriteInput<ResourceFieldsOf<typeof inboundShipmentForm>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const { input, id } of inputs) {
    const errors: FieldErrors = {};
    const [current] =
      id === null
        ? [null]
        : await db.query<{ vendor_id: number; invoice_id: number | null }>(
            'SELECT vendor_id, invoice_id FROM inbound_shipments WHERE id = $1 FOR UPDATE',
            [id],
          );
    const vendorId = input.vendor_id ?? current?.vendor_id;
    const invoiceId = input.invoice_id === undefined ? current?.invoice_id : input.invoice_id;
    const [found] = await db.query<{
      vendor: boolean | null;
      invoice_vendor: number | null;
      invoice_status: string | null;
    }>(
      `SELECT (SELECT active FROM vendors WHERE id = $1) AS vendor,
         (SELECT vendor_id FROM purchase_invoices WHERE id = $2) AS invoice_vendor,
         (SELECT status FROM purchase_invoices WHERE id = $2) AS invoice_status`,
      [vendorId ?? null, invoiceId ?? null],
    );
    if (input.vendor_id !== undefined && !found!.vendor) {
      errors.vendor_id = ['Choose an active vendor.'];
    }
    if (invoiceId != null && input.invoice_id !== undefined) {
      if (found!.invoice_vendor === null)
        errors.invoice_id = [`There is no invoice with id ${invoiceId}.`];
      else if (found!.invoice_vendor !== vendorId) {
        errors.invoice_id = ["This invoice is another vendor's."];
      } else if (found!.invoice_status === 'closed')
        errors.invoice_id = ['This invoice is closed.'];
    }
    prepared.push(preparedOf(input, errors));
  }
  return prepared;
}

export const inboundShipmentWriteStore: WriteStore<typeof inboundShipmentForm> = {
  contract: inboundShipmentForm,
  table: 'inbound_shipments',
  entity: 'inbound_shipment',
  list: shipmentList,
  uniques: {},
  references: [
    {
      label: 'warehouse boxes',
      countSql: 'SELECT count(*) FROM warehouse_boxes WHERE inbound_shipment_id = $1',
    },
  ],
  prepare: prepareShipments,
};

export async function findShipment(
  db: Queryable,
  id: number,
  lock = false,
): Promise<InboundShipment> {
  if (lock) await db.query('SELECT 1 FROM inbound_shipments WHERE id = $1 FOR UPDATE', [id]);
  const [shipment] = await db.query<InboundShipment>(
    `SELECT ${SHIPMENT_COLUMNS} FROM ${SHIPMENT_FROM} WHERE s.id = $1`,
    [id],
  );
  if (!shipment) throw new NotFoundError(`There is no inbound shipment with id ${id}.`);
  return shipment;
}

/**
 * Checks a shipment in at the dock: what arrived and its damage. Its invoice, if linked, starts
 * receiving. Checking in again corrects the counts and notes.
 */
export async function checkInShipment(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: CheckInInput,
): Promise<InboundShipment> {
  const before = await findShipment(tx, id, true);
  if (before.status === 'received') throw new ConflictError('This shipment is received already.');
  await tx.query(
    `UPDATE inbound_shipments SET status = 'arrived', arrived_at = COALESCE(arrived_at, now()),
       checked_in_by = $2, pallets_received = $3, boxes_received = $4, damaged = $5,
       damage_notes = $6, updated_at = now(), updated_by = $2
     WHERE id = $1`,
    [
      id,
      actor.userId,
      input.pallets_received ?? null,
      input.boxes_received ?? null,
      input.damaged ?? false,
      input.damage_notes ?? null,
    ],
  );
  if (before.invoice_id !== null) {
    await tx.query(
      `UPDATE purchase_invoices SET status = 'receiving', updated_at = now()
       WHERE id = $1 AND status = 'expected'`,
      [before.invoice_id],
    );
  }
  const after = await findShipment(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inbound_shipment.checked_in',
    entityType: 'inbound_shipment',
    entityId: id,
    before: { status: before.status },
    after,
  });
  return after;
}

/** Marks an arrived shipment received: it is unloaded, its cartons are warehouse boxes. */
export async function completeShipment(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<InboundShipment> {
  const before = await findShipment(tx, id, true);
  if (before.status !== 'arrived') {
    throw new ConflictError(
      before.status === 'expected'
        ? 'Check the shipment in at the dock first.'
        : 'This shipment is received already.',
    );
  }
  if (before.invoice_id === null) {
    throw new ConflictError('Link the shipment to its invoice before receiving it.');
  }
  await tx.query(
    `UPDATE inbound_shipments SET status = 'received', received_at = now(), updated_at = now(),
       updated_by = $2
     WHERE id = $1`,
    [id, actor.userId],
  );
  const after = await findShipment(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inbound_shipment.received',
    entityType: 'inbound_shipment',
    entityId: id,
    before: { status: before.status },
    after: { status: after.status },
  });
  return after;
}
