import {
  normaliseScan,
  type CreateRmaInput,
  type ResolveRmaInput,
  type RmaDetail,
  type RmaStatus,
  type ShippingService,
  type ShipTo,
} from '@inventory/contract';
import type { CarrierConfig } from '../../config.js';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { createOrder, type OrderIntake } from '../order/index.js';
import { carrierAdapter, shippingSettings } from '../shipment/index.js';
import { openRma, writeRmaDeviceEvents } from './open-rma.js';
import { rmaDetail, rmaStore } from './rma.store.js';

/**
 * The RMA's record on /RMA (DOMAIN.md 4.10): opened from an order or a device, authorised with a
 * return label, rejected, cancelled before it is received, resolved once inspected (a
 * replacement order made by the order intake, a refund, a repair) and closed. Each step runs the
 * RMA's lifecycle and goes on its devices' timelines.
 */

/** "SO-123", "so123" or "123" as the order's number "SO-0000123". */
export const orderNumberOf = (typed: string) => {
  const digits = /^(?:SO-?)?0*([0-9]+)$/i.exec(typed.trim());
  return digits ? `SO-${digits[1]!.padStart(7, '0')}` : typed.trim().toUpperCase();
};

/** "RMA-12", "rma12" or "12" as "RMA-0000012"; null for what is no RMA number. */
export const rmaNumberOf = (typed: string) => {
  const digits = /^(?:RMA-?)?0*([0-9]{1,12})$/i.exec(typed.trim());
  return digits ? `RMA-${digits[1]!.padStart(7, '0')}` : null;
};

/**
 * Opens an RMA from the page: the order by its number (every device it shipped, or the one
 * scanned), or the device alone, on the order it last shipped on.
 */
export async function createRma(
  tx: Transaction,
  { actor }: Acting,
  input: CreateRmaInput,
): Promise<RmaDetail> {
  if (!input.order_number && !input.imei) {
    throw fieldError('order_number', 'Type the order number or scan the IMEI.');
  }
  let deviceId: number | null = null;
  let lastOrderId: number | null = null;
  if (input.imei) {
    const [device] = await tx.query<{ id: string; order_id: string | null }>(
      `SELECT d.id,
         (SELECT l.order_id FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
          WHERE u.device_id = d.id AND u.status = 'shipped' ORDER BY u.id DESC LIMIT 1) AS order_id
       FROM devices d WHERE d.imei = $1 OR d.imei2 = $1 OR d.meid = $1`,
      [normaliseScan(input.imei)],
    );
    if (!device) throw fieldError('imei', 'No device has this IMEI.');
    deviceId = Number(device.id);
    lastOrderId = device.order_id === null ? null : Number(device.order_id);
  }
  let orderId = lastOrderId;
  if (input.order_number) {
    const number = orderNumberOf(input.order_number);
    const [order] = await tx.query<{ id: string }>(`SELECT id FROM orders WHERE number = $1`, [
      number,
    ]);
    if (!order) throw fieldError('order_number', `There is no order ${number}.`);
    orderId = Number(order.id);
  }
  if (orderId === null) throw fieldError('imei', 'This device has not shipped on any order.');
  const opened = await openRma(tx, actor, {
    orderId,
    deviceId,
    reason: input.reason,
    note: input.note ?? null,
  }).catch((error: unknown) => {
    // openRma names its own inputs; the page's fields are the order number and the IMEI.
    if (!(error instanceof ValidationError)) throw error;
    const { orderId: order, deviceId: device, ...rest } = error.fields;
    throw new ValidationError({
      ...rest,
      ...(order ? { order_number: order } : {}),
      ...(device ? { imei: device } : {}),
    });
  });
  return rmaDetail(tx, opened.id);
}

/** The RMA locked for a step that writes more than its state, with what the step reads of it. */
export async function lockedRma(tx: Transaction, id: number) {
  const [rma] = await tx.query<{
    number: string;
    status: RmaStatus;
    order_id: string;
    resolution: string | null;
    mismatch_flagged: boolean;
  }>(
    `SELECT number, status, order_id, resolution, mismatch_flagged FROM rmas WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rma) throw new NotFoundError(`There is no RMA with id ${id}.`);
  return rma;
}

/**
 * A fact about an RMA that is not a step of its state (a mismatch flagged or cleared, a checklist):
 * on its timeline and in the audit log as `RMA.<type>`, in the caller's transaction. `change` is a
 * column the fact changed, for the audit entry's before and after.
 */
export async function recordRmaFact(
  tx: Transaction,
  { actor, meta }: Acting,
  rma: { id: number; number: string },
  type: string,
  data: Record<string, unknown>,
  change?: { before: Record<string, unknown>; after: Record<string, unknown> },
): Promise<void> {
  await tx.query(
    `INSERT INTO rma_events (rma_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [rma.id, actor.userId, actor.userName, type, JSON.stringify(data)],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: `RMA.${type}`,
    entityType: 'RMA',
    entityId: rma.id,
    ...(change && { before: change.before }),
    after: { rma: rma.number, ...change?.after, ...data },
  });
}

/** The devices of an RMA, for their timelines. */
const deviceIdsOf = async (db: Queryable, rmaId: number) =>
  (
    await db.query<{ device_id: string }>(`SELECT device_id FROM rma_lines WHERE rma_id = $1`, [
      rmaId,
    ])
  ).map((row) => row.device_id);

/**
 * Authorises a requested RMA with a return label bought from the carrier: from the order's
 * ship-to (the customer) to the warehouse. The RMA is locked first, so a second click waits and
 * is then refused (409) without buying a second label. The offline carrier numbers a label by
 * order and generation; a return label takes generations from 50 on, past any the order's own
 * parcels use, so its number is none of theirs.
 */
export async function authorizeRma(
  tx: Transaction,
  acting: Acting,
  carrierConfig: CarrierConfig,
  id: number,
  service: ShippingService = 'usps_ground_advantage',
): Promise<RmaDetail> {
  const rma = await lockedRma(tx, id);
  if (rma.status !== 'requested') {
    throw new ConflictError(
      `${rma.number} is ${rma.status.replace(/_/g, ' ')}: only a requested RMA is authorised.`,
    );
  }
  const settings = await shippingSettings(tx);
  const [facts] = await tx.query<{
    name: string;
    company: string | null;
    line1: string;
    line2: string | null;
    city: string;
    state: string;
    zip: string;
    generation: number;
    devices: number;
  }>(
    `SELECT t.name, t.company, t.line1, t.line2, t.city, t.state, t.zip,
       50 + (SELECT count(*)::int FROM rmas r JOIN rma_return_labels rl ON rl.rma_id = r.id
             WHERE r.order_id = t.order_id) AS generation,
       (SELECT count(*)::int FROM rma_lines l WHERE l.rma_id = $2) AS devices
     FROM order_ship_to t WHERE t.order_id = $1`,
    [rma.order_id, id],
  );
  if (!facts) throw new ConflictError(`The order of ${rma.number} has no address to collect from.`);
  const label = await carrierAdapter(settings, carrierConfig).createLabel({
    idempotencyKey: `rma-${id}`,
    orderId: Number(rma.order_id),
    generation: facts.generation,
    service,
    weightG: facts.devices * settings.default_device_weight_g + settings.packaging_weight_g,
    shipFrom: facts,
    shipTo: settings.ship_from,
    reference: rma.number,
  });
  await tx.query(
    `INSERT INTO rma_return_labels (rma_id, carrier, service, tracking_number, carrier_ref, format,
       content)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      label.carrier,
      service,
      label.trackingNumber,
      label.carrierRef ?? null,
      label.document?.format ?? null,
      label.document?.content ?? null,
    ],
  );
  const data = { rma: rma.number, carrier: label.carrier, tracking: label.trackingNumber };
  await runTransition(tx, rmaStore, {
    id,
    action: 'authorize',
    actor: acting.actor,
    meta: acting.meta,
    data,
  });
  await writeRmaDeviceEvents(
    tx,
    acting.actor,
    id,
    'rma_authorized',
    await deviceIdsOf(tx, id),
    data,
  );
  return rmaDetail(tx, id);
}

/** Reject, mark in transit, cancel or close: the lifecycle's step, on the devices' timelines too. */
export async function transitionRma(
  tx: Transaction,
  acting: Acting,
  id: number,
  action: 'reject' | 'mark_in_transit' | 'cancel' | 'close',
  reason: string | null,
): Promise<RmaDetail> {
  const step = await runTransition(tx, rmaStore, {
    id,
    action,
    actor: acting.actor,
    meta: acting.meta,
    reason,
  });
  await writeRmaDeviceEvents(tx, acting.actor, id, `rma_${step.to}`, await deviceIdsOf(tx, id), {
    rma: step.label,
    ...(reason ? { reason } : {}),
  });
  return rmaDetail(tx, id);
}

const RESOLUTION_ACTION = {
  replacement: 'send_replacement',
  refund: 'refund',
  repair: 'repair',
} as const;

/**
 * Resolves an inspected RMA. A replacement is an order of source and type `replacement` made by
 * the order intake, a child of the original order, for the variants of the devices coming back,
 * at no charge and outside any listing: it waits on /fulfill/replacement (or in the backlog,
 * with why, when validation holds it).
 */
export async function resolveRma(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: ResolveRmaInput,
): Promise<RmaDetail> {
  const rma = await lockedRma(tx, id);
  if (rma.status !== 'inspected') {
    throw new ConflictError(
      `${rma.number} is ${rma.status.replace(/_/g, ' ')}: an RMA is resolved once inspected.`,
    );
  }
  if (input.resolution === 'refund' && input.refund_cents === undefined) {
    throw fieldError('refund_cents', 'Say how much is refunded.');
  }
  let replacement: { id: number; number: string } | null = null;
  if (input.resolution === 'replacement') {
    replacement = await orderReplacement(tx, acting, id, rma.number, Number(rma.order_id));
  }
  await runTransition(tx, rmaStore, {
    id,
    action: RESOLUTION_ACTION[input.resolution],
    actor: acting.actor,
    meta: acting.meta,
    data: {
      rma: rma.number,
      ...(replacement ? { replacement_order: replacement.number } : {}),
      ...(input.refund_cents !== undefined ? { refund_cents: input.refund_cents } : {}),
    },
    columns: {
      resolution: input.resolution,
      refund_cents: input.resolution === 'refund' ? input.refund_cents : null,
      replacement_order_id: replacement?.id ?? null,
    },
  });
  await writeRmaDeviceEvents(tx, acting.actor, id, 'rma_resolved', await deviceIdsOf(tx, id), {
    rma: rma.number,
    resolution: input.resolution,
    ...(replacement ? { replacement_order: replacement.number } : {}),
  });
  return rmaDetail(tx, id);
}

async function orderReplacement(
  tx: Transaction,
  acting: Acting,
  rmaId: number,
  rmaNumber: string,
  orderId: number,
) {
  const [original] = await tx.query<{
    client_carrier_id: number | null;
    program: OrderIntake['program'];
    subscriber_id: number | null;
    retailer_id: number | null;
    ship_method: NonNullable<OrderIntake['shipMethod']>;
    ship_to: ShipTo;
  }>(
    `SELECT o.client_carrier_id::int AS client_carrier_id, o.program,
       o.subscriber_id::int AS subscriber_id, o.retailer_id::int AS retailer_id, o.ship_method,
       row_to_json(t) AS ship_to
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id WHERE o.id = $1`,
    [orderId],
  );
  const variants = await tx.query<{ variant_id: number; qty: number }>(
    `SELECT COALESCE(u.variant_id, ol.variant_id)::int AS variant_id, count(*)::int AS qty
     FROM rma_lines l
     JOIN order_line_units u ON u.id = l.order_line_unit_id
     JOIN order_lines ol ON ol.id = u.order_line_id
     WHERE l.rma_id = $1 AND COALESCE(u.variant_id, ol.variant_id) IS NOT NULL
     GROUP BY 1 ORDER BY 1`,
    [rmaId],
  );
  if (!original || variants.length === 0) {
    throw new ConflictError(
      `${rmaNumber}: the devices' variants are not known, so no replacement can be ordered.`,
    );
  }
  const created = await createOrder(tx, acting, {
    source: 'replacement',
    fulfilmentType: 'replacement',
    clientCarrierId: original.client_carrier_id,
    program: original.program,
    customer:
      original.subscriber_id !== null
        ? { subscriberId: original.subscriber_id }
        : { retailerId: original.retailer_id! },
    shipTo: original.ship_to,
    shipMethod: original.ship_method,
    parentOrderId: orderId,
    notes: `Replacement for ${rmaNumber}`,
    lines: variants.map((variant) => ({
      sellable: { kind: 'variant', id: variant.variant_id },
      listingId: null,
      qty: variant.qty,
      unitPriceCents: 0,
    })),
  });
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'RMA.replacement_ordered',
    entityType: 'RMA',
    entityId: rmaId,
    after: { rma: rmaNumber, order: created.number, status: created.status },
  });
  return { id: created.id, number: created.number };
}
