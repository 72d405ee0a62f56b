import {
  LABEL_QUEUE_GROUP_LIMIT,
  nextStatus,
  orderLifecycle,
  PACKAGE_VOIDABLE_STATUSES,
  SHIP_METHOD_SERVICE,
  SHIPPING_SERVICE_INFO,
  type LabelBatch,
  type LabelFormat,
  type LabelQueue,
  type LabelQueueOrder,
  type LabelStepAnswer,
  type OrderStatus,
  type PackageRow,
  type PackageStatus,
  type ShippingService,
} from '@inventory/contract';
import type { CarrierConfig } from '../../config.js';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Actor, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudits } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { orderStore } from '../order/index.js';
import { outsideScope, type CampaignScope } from './campaign-scope.js';
import { CarrierRefusal, offlineCarrier, type CarrierAdapter } from './carrier-adapter.js';
import { carrierRefOf, keepCarrierLabels, refuseOtherFormat } from './carrier-labels.store.js';
import { easyPostCarrier } from './easypost-carrier.js';
import { PACKAGE_ROW_COLUMNS, packageRow, packageStore } from './packages.store.js';
import { shippingSettings, type ShippingSettings } from './shipping-label.js';

/**
 * The label desk (DOMAIN.md 4.14 /fulfill/print-label): fulfilled orders wait grouped by carrier
 * and service; a batch labels them in steps of up to 25 orders, each step one transaction that
 * labels the order, buys the label, creates the package and packs the devices; an order labelled
 * already keeps its package, so a retried step never buys a second label. A label is voided only
 * before scan-out (invariant 9), which takes the order back to fulfilled and its devices to picked.
 */

/**
 * Who acts and from where: the signed-in person at a desk, or the label batch's job acting for
 * the person who gave it its orders (`label-runs.ts`).
 */
export type Desk = { readonly principal: Actor; readonly meta: RequestMeta };

/** The desk's work that asks the carrier: which carrier the server is set up with. */
export type LabelDesk = Desk & { readonly carrier: CarrierConfig };

/**
 * The carrier that sells labels: EasyPost when the server is set up so (`config.carrier`), else
 * the offline one.
 */
export const carrierAdapter = (
  settings: ShippingSettings,
  carrier: CarrierConfig = { adapter: 'offline' },
): CarrierAdapter =>
  carrier.adapter === 'easypost'
    ? easyPostCarrier(carrier)
    : offlineCarrier({
        uspsMailerId: settings.usps_mailer_id,
        upsShipperNumber: settings.ups_shipper_number,
      });

/** Fulfilled orders waiting for a label (of the campaign, if scoped), by service, oldest first. */
export async function labelQueue(
  db: Queryable,
  scope: CampaignScope | null = null,
): Promise<LabelQueue> {
  const rows = await db.query<LabelQueueOrder & { ship_method: string; total: number }>(
    `SELECT * FROM (
       SELECT o.id::int AS order_id, o.number AS order_number, o.fulfilment_type, o.ship_method,
         COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
           AS place,
         COALESCE((SELECT string_agg(l.qty || ' × ' || l.sku, ', ' ORDER BY l.position)
                   FROM order_lines l WHERE l.order_id = o.id), '') AS items_text,
         COALESCE((SELECT sum(l.qty) FROM order_lines l WHERE l.order_id = o.id), 0)::int AS units,
         ${isoTextSql('o.sla_due_at')} AS sla_due_at, ${isoTextSql('o.created_at')} AS created_at,
         order_label_blocker(o.id) AS waiting,
         row_number() OVER (PARTITION BY o.ship_method ORDER BY o.created_at, o.id) AS n,
         (count(*) OVER (PARTITION BY o.ship_method))::int AS total
       FROM orders o WHERE o.status = 'fulfilled' AND ($2::bigint IS NULL OR o.campaign_id = $2)
     ) q WHERE n <= $1 ORDER BY created_at, order_id`,
    [LABEL_QUEUE_GROUP_LIMIT, scope?.id ?? null],
  );
  const groups = new Map<ShippingService, LabelQueue['groups'][number]>();
  // Each row carries its ship method's total.
  const withoutParcel = new Map<string, number>();
  for (const { ship_method, total, ...order } of rows) {
    const service = SHIP_METHOD_SERVICE[ship_method as keyof typeof SHIP_METHOD_SERVICE];
    if (!service) {
      withoutParcel.set(ship_method, total);
      continue;
    }
    const group = groups.get(service) ?? {
      service,
      carrier: SHIPPING_SERVICE_INFO[service].carrier,
      total: 0,
      orders: [],
    };
    group.total = Math.max(group.total, total);
    group.orders.push({
      order_id: order.order_id,
      order_number: order.order_number,
      fulfilment_type: order.fulfilment_type,
      place: order.place,
      items_text: order.items_text,
      units: order.units,
      sla_due_at: order.sla_due_at,
      created_at: order.created_at,
      waiting: order.waiting,
    });
    groups.set(service, group);
  }
  return {
    groups: [...groups.values()],
    without_parcel: [...withoutParcel.values()].reduce((sum, total) => sum + total, 0),
  };
}

export async function batchRow(db: Queryable, id: number): Promise<LabelBatch> {
  const [batch] = await db.query<LabelBatch>(
    `SELECT b.id::int AS id, b.format, ${isoTextSql('b.created_at')} AS created_at,
       (SELECT count(*)::int FROM packages p
        WHERE p.label_batch_id = b.id AND p.status <> 'voided') AS labels
     FROM label_batches b WHERE b.id = $1`,
    [id],
  );
  if (!batch) throw new NotFoundError(`There is no label batch with id ${id}.`);
  return batch;
}

export async function createLabelBatch(
  tx: Transaction,
  { principal }: Desk,
  format: LabelFormat,
): Promise<LabelBatch> {
  const [batch] = await tx.query<{ id: number }>(
    'INSERT INTO label_batches (format, created_by) VALUES ($1, $2) RETURNING id::int AS id',
    [format, principal.userId],
  );
  return batchRow(tx, batch!.id);
}

type OrderToLabel = {
  id: number;
  number: string;
  status: OrderStatus;
  ship_method: keyof typeof SHIP_METHOD_SERVICE;
  campaign_id: number | null;
  /** What it waits for before its label (migration 0058's `order_label_blocker`). */
  waiting: string | null;
};

/** What the carrier needs of an order to label it: where to, what it weighs, its devices. */
type LabelFacts = {
  order_id: number;
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zip: string;
  device_ids: number[];
  devices_g: number;
  /** The order's packages before this one (voided): the new label's generation. */
  generation: number;
};

/**
 * Labels up to 25 orders of a batch in one transaction. The orders are locked first (in id order,
 * as the lifecycle does), so of two steps over the same order the second finds it labelled and
 * answers its package. A desk scoped to a campaign refuses the orders of any other.
 */
export async function labelStep(
  tx: Transaction,
  desk: LabelDesk,
  batchId: number,
  orderIds: readonly number[],
  scope: CampaignScope | null = null,
): Promise<LabelStepAnswer> {
  const batch = await batchRow(tx, batchId);
  const ids = [...new Set(orderIds)];
  const orders = await tx.query<OrderToLabel>(
    `SELECT id::int AS id, number, status, ship_method, campaign_id::int AS campaign_id,
       order_label_blocker(id) AS waiting
     FROM orders WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  const active = await tx.query<{ order_id: number; package_id: number }>(
    `SELECT order_id::int AS order_id, id::int AS package_id FROM packages
     WHERE order_id = ANY ($1::bigint[]) AND status <> 'voided'`,
    [ids],
  );
  const activeOf = new Map(active.map((row) => [row.order_id, row.package_id]));
  const byId = new Map(orders.map((order) => [order.id, order]));
  const results = new Map<number, LabelStepAnswer['results'][number]>();
  const refuse = (id: number, message: string) =>
    results.set(id, {
      order_id: id,
      order_number: byId.get(id)?.number ?? null,
      result: 'refused',
      message,
      package: null,
    });
  const toLabel: OrderToLabel[] = [];
  for (const id of ids) {
    const order = byId.get(id);
    if (!order) {
      refuse(id, `There is no order with id ${id}.`);
      continue;
    }
    if (outsideScope(scope, order.campaign_id)) {
      refuse(
        id,
        `Order ${order.number} is not of campaign ${scope!.name}: label it at its own desk.`,
      );
      continue;
    }
    const packageId = activeOf.get(id);
    if (packageId !== undefined) {
      results.set(id, {
        order_id: id,
        order_number: order.number,
        result: 'already_labelled',
        message: `Order ${order.number} has its label already: it is printed again with the batch.`,
        package: await packageRow(tx, packageId),
      });
      continue;
    }
    const step = nextStatus(orderLifecycle, order, 'label');
    if (!step.ok) {
      refuse(id, step.message);
      continue;
    }
    if (!SHIP_METHOD_SERVICE[order.ship_method]) {
      refuse(id, `Order ${order.number} ships by ${order.ship_method}: it takes no parcel label.`);
      continue;
    }
    if (order.waiting !== null) {
      refuse(id, `Order ${order.number} is not labelled yet: ${order.waiting}`);
      continue;
    }
    toLabel.push(order);
  }
  if (toLabel.length > 0) {
    const { created, refused } = await labelOrders(tx, desk, batch, toLabel);
    for (const { order, message } of refused) refuse(order.id, message);
    for (const row of created) {
      results.set(row.order_id, {
        order_id: row.order_id,
        order_number: row.order_number,
        result: 'created',
        message: `Label ${row.tracking_number} created.`,
        package: row,
      });
    }
  }
  return {
    results: ids.map((id) => results.get(id)!),
    batch: await batchRow(tx, batchId),
  };
}

/**
 * Labels orders known to be fulfilled, with a parcel service and no active package. The labels
 * are bought first: an order whose label the carrier refuses (its address, no rate) is refused
 * with the carrier's words and the others are labelled.
 */
async function labelOrders(
  tx: Transaction,
  { principal, meta, carrier: carrierConfig }: LabelDesk,
  batch: LabelBatch,
  orders: readonly OrderToLabel[],
): Promise<{ created: PackageRow[]; refused: { order: OrderToLabel; message: string }[] }> {
  const settings = await shippingSettings(tx);
  const facts = await tx.query<LabelFacts>(
    `SELECT o.id::int AS order_id, t.name, t.company, t.line1, t.line2, t.city, t.state, t.zip,
       COALESCE(array_agg(u.device_id ORDER BY u.id) FILTER (WHERE u.device_id IS NOT NULL), '{}')::int[]
         AS device_ids,
       COALESCE(sum(COALESCE(m.weight_g, $2)) FILTER (WHERE u.device_id IS NOT NULL), 0)::int
         AS devices_g,
       (SELECT count(*)::int FROM packages p WHERE p.order_id = o.id) AS generation
     FROM orders o
     JOIN order_ship_to t ON t.order_id = o.id
     LEFT JOIN order_lines l ON l.order_id = o.id
     LEFT JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'picked'
     LEFT JOIN devices d ON d.id = u.device_id
     LEFT JOIN device_models m ON m.id = d.model_id
     WHERE o.id = ANY ($1::bigint[])
     GROUP BY o.id, t.order_id`,
    [orders.map((order) => order.id), settings.default_device_weight_g],
  );
  const factsOf = new Map(facts.map((row) => [row.order_id, row]));
  const missing = orders.find((order) => !factsOf.has(order.id));
  if (missing) throw new ConflictError(`Order ${missing.number} has no ship-to address.`);

  const carrier = carrierAdapter(settings, carrierConfig);
  const packages = [];
  const refused = [];
  for (const order of orders) {
    const fact = factsOf.get(order.id)!;
    const service = SHIP_METHOD_SERVICE[order.ship_method]!;
    const weightG = fact.devices_g + settings.packaging_weight_g;
    try {
      const label = await carrier.createLabel({
        idempotencyKey: `${order.id}-${fact.generation}`,
        orderId: order.id,
        generation: fact.generation,
        service,
        weightG,
        shipFrom: settings.ship_from,
        shipTo: fact,
        reference: order.number,
        format: batch.format,
      });
      packages.push({ order, service, weightG, ...label });
    } catch (error) {
      if (!(error instanceof CarrierRefusal)) throw error;
      refused.push({ order, message: error.carrierMessage });
    }
  }
  if (packages.length === 0) return { created: [], refused };
  const ids = packages.map((p) => p.order.id);
  await runTransitions(tx, orderStore, {
    ids,
    action: 'label',
    actor: principal,
    meta,
    data: { label_batch_id: batch.id },
  });
  const inserted = await tx.query<{ id: number }>(
    `INSERT INTO packages (order_id, label_batch_id, carrier, service, tracking_number, weight_g,
       label_format, label_created_by)
     SELECT s.order_id, $7, s.carrier, s.service, s.tracking, s.weight, $8, $9
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
       AS s (order_id, carrier, service, tracking, weight, n)
     ORDER BY s.n
     RETURNING id::int AS id`,
    [
      packages.map((p) => p.order.id),
      packages.map((p) => p.carrier),
      packages.map((p) => p.service),
      packages.map((p) => p.trackingNumber),
      packages.map((p) => p.weightG),
      packages.map((_, n) => n),
      batch.id,
      batch.format,
      principal.userId,
    ],
  );
  const packageIds = inserted.map((row) => row.id);
  await keepCarrierLabels(
    tx,
    packages.flatMap((p, n) =>
      p.carrierRef && p.document
        ? [{ packageId: packageIds[n]!, carrierRef: p.carrierRef, document: p.document }]
        : [],
    ),
  );
  await tx.query(
    `INSERT INTO package_events (package_id, actor_id, actor_name, type, to_status, data)
     SELECT p.id, $2, $3, 'label_created', p.status,
       jsonb_build_object('carrier', p.carrier, 'service', p.service, 'tracking', p.tracking_number,
         'weight_g', p.weight_g, 'label_batch_id', p.label_batch_id)
     FROM packages p WHERE p.id = ANY ($1::bigint[])`,
    [packageIds, principal.userId, principal.userName],
  );
  await recordAudits(
    tx,
    { ...auditActor(principal, meta), action: 'package.label_created', entityType: 'package' },
    packages.map((p, n) => ({
      entityId: packageIds[n]!,
      after: {
        order: p.order.number,
        carrier: p.carrier,
        service: p.service,
        tracking: p.trackingNumber,
        weight_g: p.weightG,
      },
    })),
  );
  const deviceIds = ids.flatMap((id) => factsOf.get(id)!.device_ids);
  await applyDeviceAction(tx, principal, meta, {
    deviceIds,
    action: 'pack',
    data: { label_batch_id: batch.id },
  });
  await moveUnits(tx, ids, 'picked', 'packed');
  const created = await tx.query<PackageRow>(
    `SELECT ${PACKAGE_ROW_COLUMNS} FROM packages p WHERE p.id = ANY ($1::bigint[]) ORDER BY p.id`,
    [packageIds],
  );
  return { created, refused };
}

/** The orders' units and lines follow their devices (picked, packed, shipped). */
export async function moveUnits(
  tx: Transaction,
  orderIds: readonly number[],
  from: 'picked' | 'packed',
  to: 'picked' | 'packed' | 'shipped',
): Promise<void> {
  await tx.query(
    `WITH units AS (
       UPDATE order_line_units u SET status = $3, updated_at = now()
       FROM order_lines l
       WHERE l.id = u.order_line_id AND l.order_id = ANY ($1::bigint[]) AND u.status = $2
     )
     UPDATE order_lines SET status = $3
     WHERE order_id = ANY ($1::bigint[]) AND status <> 'cancelled'`,
    [orderIds, from, to],
  );
}

const SCANNED_OUT_TEXT = (tracking: string, at: string | null) =>
  `Package ${tracking} was scanned out${at ? ` at ${at.slice(0, 16).replace('T', ' ')} UTC` : ''}: ` +
  'a label is voided only before scan-out. Request a carrier intercept or an RMA instead.';

/**
 * Voids a package's label before scan-out: the package is voided, its order goes back to fulfilled
 * (an order whose cancellation was requested stays so, for the cancellation to finish) and its
 * devices and units back to picked. After scan-out a 409 says why (DOMAIN.md invariant 9).
 */
export async function voidLabel(
  tx: Transaction,
  { principal, meta, carrier: carrierConfig }: LabelDesk,
  id: number,
  reason: string | null,
): Promise<PackageRow> {
  const [found] = await tx.query<{
    status: PackageStatus;
    order_id: number;
    carrier: 'usps' | 'ups';
    tracking_number: string;
    scanned_out_at: string | null;
  }>(
    `SELECT status, order_id::int AS order_id, carrier, tracking_number,
       ${isoTextSql('scanned_out_at')} AS scanned_out_at
     FROM packages WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!found) throw new NotFoundError(`There is no package with id ${id}.`);
  const voidable: readonly PackageStatus[] = PACKAGE_VOIDABLE_STATUSES;
  if (found.status !== 'voided' && !voidable.includes(found.status)) {
    throw new ConflictError(SCANNED_OUT_TEXT(found.tracking_number, found.scanned_out_at));
  }
  await runTransition(tx, packageStore, {
    id,
    action: 'void',
    actor: principal,
    meta,
    reason,
    columns: { voided_by: principal.userId, void_reason: reason },
  });
  const carrier = carrierAdapter(await shippingSettings(tx), carrierConfig);
  const carrierRef = await carrierRefOf(tx, id);
  // The offline carrier would take the void of a label EasyPost sold, which EasyPost would bill.
  if (carrierRef && carrierConfig.adapter !== 'easypost') {
    throw new ConflictError(
      `Label ${found.tracking_number} was bought from EasyPost: it is voided through EasyPost, ` +
        'which this server is not set up for (CARRIER_ADAPTER).',
    );
  }
  const voided = await carrier.voidLabel({
    carrier: found.carrier,
    trackingNumber: found.tracking_number,
    ...(carrierRef && { carrierRef }),
  });
  if (!voided) {
    throw new ConflictError(`The carrier did not void label ${found.tracking_number}; try again.`);
  }
  const [order] = await tx.query<{ status: OrderStatus }>(
    'SELECT status FROM orders WHERE id = $1 FOR UPDATE',
    [found.order_id],
  );
  if (order?.status === 'labeled') {
    await runTransition(tx, orderStore, {
      id: found.order_id,
      action: 'void_label',
      actor: principal,
      meta,
      data: { package_id: id, tracking: found.tracking_number },
    });
  }
  const devices = await tx.query<{ id: number }>(
    `SELECT u.device_id::int AS id FROM order_line_units u
     JOIN order_lines l ON l.id = u.order_line_id
     WHERE l.order_id = $1 AND u.status = 'packed' AND u.device_id IS NOT NULL`,
    [found.order_id],
  );
  await applyDeviceAction(tx, principal, meta, {
    deviceIds: devices.map((device) => device.id),
    action: 'unpack_label',
    data: { package_id: id, tracking: found.tracking_number },
  });
  await moveUnits(tx, [found.order_id], 'packed', 'picked');
  return packageRow(tx, id);
}

/**
 * Records a print of packages' labels: a first print stamps the time, a later one counts as a
 * reprint, on the package's timeline and, for reprints, in the audit log. Only labels not voided
 * and not scanned out print. Answers how many were printed.
 */
export async function recordPrints(
  tx: Transaction,
  { principal, meta }: Desk,
  where: string,
  params: unknown[],
): Promise<number> {
  const printed = await tx.query<{ id: number; tracking_number: string; reprint: boolean }>(
    `WITH chosen AS (
       SELECT p.id, p.first_printed_at IS NOT NULL AS reprint FROM packages p
       WHERE ${where} AND p.status IN ('label_created', 'in_gaylord')
       ORDER BY p.id FOR UPDATE
     )
     UPDATE packages p SET first_printed_at = COALESCE(p.first_printed_at, now()),
       reprint_count = p.reprint_count + chosen.reprint::int, updated_at = now()
     FROM chosen WHERE p.id = chosen.id
     RETURNING p.id::int AS id, p.tracking_number, chosen.reprint, p.reprint_count`,
    params,
  );
  if (printed.length === 0) return 0;
  await tx.query(
    `INSERT INTO package_events (package_id, actor_id, actor_name, type, data)
     SELECT s.id, $3, $4, CASE WHEN s.reprint THEN 'label_reprinted' ELSE 'label_printed' END,
       '{}'::jsonb
     FROM unnest($1::bigint[], $2::boolean[]) AS s (id, reprint)`,
    [
      printed.map((row) => row.id),
      printed.map((row) => row.reprint),
      principal.userId,
      principal.userName,
    ],
  );
  const reprints = printed.filter((row) => row.reprint);
  if (reprints.length > 0) {
    await recordAudits(
      tx,
      { ...auditActor(principal, meta), action: 'package.label_reprinted', entityType: 'package' },
      reprints.map((row) => ({ entityId: row.id, after: { tracking: row.tracking_number } })),
    );
  }
  return printed.length;
}

/** A batch's print: its active labels; 409 when none is left to print. */
export async function printBatch(
  tx: Transaction,
  desk: Desk,
  batchId: number,
  format: LabelFormat,
) {
  await batchRow(tx, batchId);
  await refuseOtherFormat(tx, 'p.label_batch_id = $1', [batchId], format);
  const printed = await recordPrints(tx, desk, 'p.label_batch_id = $1', [batchId]);
  if (printed === 0) {
    throw new ConflictError(
      `No label of batch ${batchId} is left to print: they are voided or scanned out.`,
    );
  }
  return { batch_id: batchId };
}

/** One package's reprint: 409 for a voided label or a parcel scanned out. */
export async function reprintLabel(tx: Transaction, desk: Desk, id: number, format: LabelFormat) {
  const row = await packageRow(tx, id);
  await refuseOtherFormat(tx, 'p.id = $1', [id], format);
  const printed = await recordPrints(tx, desk, 'p.id = $1', [id]);
  if (printed === 0) {
    throw new ConflictError(
      row.status === 'voided'
        ? `The label of package ${row.tracking_number} is voided: it is not printed again.`
        : `Package ${row.tracking_number} is ${row.status.replace(/_/g, ' ')}: its label is not printed again.`,
    );
  }
  return { package_id: id };
}
