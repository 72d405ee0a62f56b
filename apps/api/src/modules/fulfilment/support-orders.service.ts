import {
  canAccess,
  PICKER_LIMIT,
  SUPPORT_ORDER_APPROVE_ACCESS,
  SUPPORT_ORDER_LIST_LIMIT,
  type createSupportOrderSchema,
  type FieldErrors,
  type ShipTo,
  type SupportItemOption,
  type SupportOrderRow,
  type SupportSubscriber,
  type UsAddress,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  fieldError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../http/errors.js';
import { accessSubjectOf, type Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import {
  createOrder,
  masked,
  orderStore,
  settleValidation,
  validateOrder,
  writeOrderEvent,
} from '../order/index.js';

/**
 * Support orders (DOMAIN.md 4.14 `/fulfill/support-order`): customer support sends a subscriber
 * found by their enrolment number or an order of theirs chargers, accessories, a SIM kit or a
 * goodwill device, with a reason. It is an order of source and type `support` made by the one
 * intake, at no charge and outside any listing; submitted at once (validated: ready, or on hold
 * with why), or, with a device among its items, pending until a manager approves it. The same
 * item for the same subscriber within `order_settings.support_duplicate_days` is refused (409)
 * unless a manager overrides; one subscriber's support orders are checked in turn (an advisory
 * lock), so two created at once cannot both pass.
 */

/** A support order's row, over `support_orders so JOIN orders o`. */
const ROW_SQL = `
  SELECT o.id::int AS order_id, o.number, o.status, o.hold_note, so.reason, so.note,
    COALESCE((SELECT ${masked("s.first_name || ' ' || s.last_name")} FROM subscribers s
              WHERE s.id = o.subscriber_id), '') AS customer,
    (SELECT cv.name FROM vendors cv WHERE cv.id = o.client_carrier_id) AS client_carrier,
    COALESCE((SELECT string_agg(l.qty || ' × ' || l.sku, ', ' ORDER BY l.position)
              FROM order_lines l WHERE l.order_id = o.id), '') AS items_text,
    o.ship_method, so.needs_approval, ${isoTextSql('so.approved_at')} AS approved_at,
    (SELECT u.name FROM users u WHERE u.id = so.approved_by) AS approved_by,
    so.duplicate_of, ${isoTextSql('o.created_at')} AS created_at,
    (SELECT u.name FROM users u WHERE u.id = o.created_by) AS created_by
  FROM support_orders so JOIN orders o ON o.id = so.order_id`;

export async function supportOrderRow(db: Queryable, orderId: number): Promise<SupportOrderRow> {
  const [row] = await db.query<SupportOrderRow>(`${ROW_SQL} WHERE so.order_id = $1`, [orderId]);
  if (!row) throw new NotFoundError(`There is no support order with id ${orderId}.`);
  return row;
}

/** The newest support orders, or those waiting for a manager. */
export const supportOrders = (db: Queryable, awaitingApproval: boolean) =>
  db.query<SupportOrderRow>(
    `${ROW_SQL}
     WHERE $1::boolean IS FALSE OR (so.needs_approval AND so.approved_at IS NULL
       AND o.status = 'pending')
     ORDER BY so.order_id DESC LIMIT $2`,
    [awaitingApproval, SUPPORT_ORDER_LIST_LIMIT],
  );

/** An order number as typed: "SO-" and digits, or the digits alone. */
const ORDER_NUMBER = /^(SO-?)?([0-9]+)$/i;

/**
 * Subscribers by their enrolment or account number, or by the number of an order of theirs:
 * exact matches (both indexed), names masked.
 */
export async function supportSubscribers(
  db: Queryable,
  search: string | undefined,
  id: number | undefined,
): Promise<SupportSubscriber[]> {
  const term = search?.trim() ?? '';
  if (term === '' && id === undefined) return [];
  const number = ORDER_NUMBER.exec(term);
  const orderNumber = number ? `SO-${number[2]!.replace(/^0+(?=.)/, '').padStart(7, '0')}` : null;
  return db.query<SupportSubscriber>(
    `SELECT s.id::int AS id, ${masked("s.first_name || ' ' || s.last_name")} AS customer,
       s.external_id, cv.name AS client_carrier, s.program,
       s.service_city || ', ' || s.service_state AS place,
       (SELECT o.number FROM orders o WHERE o.subscriber_id = s.id ORDER BY o.id DESC LIMIT 1)
         AS last_order
     FROM subscribers s JOIN vendors cv ON cv.id = s.client_carrier_id
     WHERE s.id = $4
        OR s.external_id = $1
        OR s.id = (SELECT o.subscriber_id FROM orders o WHERE o.number = $2)
     ORDER BY s.id LIMIT $3`,
    [term, orderNumber, PICKER_LIMIT, id ?? null],
  );
}

const SIM_KIT_LABEL = "SIM kit · the subscriber's carrier";

/**
 * Items by SKU or name: the SIM kit (one entry, which becomes the subscriber's carrier's), active
 * variants of active products with their kind, then active accessories of the master that no
 * catalogue variant sells yet. The carriers' SIM kits made for support orders stay behind the one
 * entry, so the agent cannot pick another carrier's.
 */
export const supportItemOptions = (db: Queryable, search: string | undefined, id?: number) =>
  db.query<SupportItemOption>(
    `SELECT 0 AS id, 'sim_kit' AS source, $4 AS label, 'sim_kit' AS kind
     WHERE $3::bigint IS NULL AND ($1 = '' OR $4 ILIKE '%' || $1 || '%')
     UNION ALL
     SELECT * FROM (
       SELECT v.id::int AS id, 'variant' AS source, v.sku || ' · ' || p.name AS label, p.kind
       FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.status = 'active' AND p.status = 'active' AND v.sim_carrier_id IS NULL
         AND ($3::bigint IS NULL OR v.id = $3)
         AND ($1 = '' OR v.sku ILIKE $1 || '%' OR p.name ILIKE '%' || $1 || '%')
       ORDER BY p.kind <> 'accessory', v.sku LIMIT $2) variants
     UNION ALL
     SELECT * FROM (
       SELECT a.id::int, 'accessory', a.sku || ' · ' || a.name, 'accessory'
       FROM accessories a
       WHERE a.active AND $3::bigint IS NULL
         AND ($1 = '' OR a.sku ILIKE $1 || '%' OR a.name ILIKE '%' || $1 || '%')
         AND NOT EXISTS (SELECT 1 FROM product_variants v
                         WHERE v.accessory_id = a.id AND v.status = 'active')
       ORDER BY a.sku LIMIT $2) accessories
     LIMIT $2`,
    [search?.trim() ?? '', PICKER_LIMIT, id ?? null, SIM_KIT_LABEL],
  );

/** A valid catalogue SKU made of an accessory's, or of its id when its own is not one. */
const SKU = /^[A-Z0-9][A-Z0-9._-]{1,63}$/;

/**
 * The catalogue variant that sells an accessory of the master: the one there is, or a new
 * accessory product with one variant of the accessory's SKU (`ACC-<id>` when taken or not a
 * valid SKU). One accessory at a time (an advisory lock), so two orders never make two.
 */
async function variantOfAccessory(tx: Transaction, accessoryId: number): Promise<number | null> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
    `accessory-variant:${accessoryId}`,
  ]);
  const [accessory] = await tx.query<{ sku: string; name: string; variant_id: number | null }>(
    `SELECT a.sku, a.name,
       (SELECT v.id::int FROM product_variants v JOIN products p ON p.id = v.product_id
        WHERE v.accessory_id = a.id AND v.status = 'active' AND p.status = 'active'
        ORDER BY v.id LIMIT 1) AS variant_id
     FROM accessories a WHERE a.id = $1 AND a.active`,
    [accessoryId],
  );
  if (!accessory) return null;
  if (accessory.variant_id !== null) return accessory.variant_id;
  return catalogueSupportItem(tx, {
    name: accessory.name,
    kind: 'accessory',
    sku: accessory.sku.toUpperCase(),
    fallbackSku: `ACC-${accessoryId}`,
    link: { column: 'accessory_id', id: accessoryId },
  });
}

/**
 * Puts an item a support order sends in the catalogue: a product of `kind` named after it with
 * one variant, linked to what it sells (`link`: a column of ours and its id). The variant's SKU is
 * `sku` unless it is no valid SKU or another sellable has it, else `fallbackSku`.
 */
async function catalogueSupportItem(
  tx: Transaction,
  item: {
    name: string;
    kind: 'accessory' | 'sim_kit';
    sku: string;
    fallbackSku: string;
    link: { column: 'accessory_id' | 'sim_carrier_id'; id: number };
  },
): Promise<number> {
  const [taken] = await tx.query(
    `SELECT 1 FROM product_variants WHERE sku = $1 UNION ALL SELECT 1 FROM bundles WHERE sku = $1
     UNION ALL SELECT 1 FROM combos WHERE sku = $1`,
    [item.sku],
  );
  const sku = SKU.test(item.sku) && !taken ? item.sku : item.fallbackSku;
  const [variant] = await tx.query<{ id: number }>(
    `WITH product AS (
       INSERT INTO products (name, kind, description)
       VALUES ($1 || ' (' || $2 || ')', $4, 'Made for a support order.')
       RETURNING id)
     INSERT INTO product_variants (product_id, sku, ${item.link.column})
     SELECT id, $2, $3 FROM product RETURNING id::int AS id`,
    [item.name, sku, item.link.id, item.kind],
  );
  return variant!.id;
}

/**
 * The catalogue variant of a client carrier's SIM kit: the one there is, or a new SIM kit product
 * (no model: its units are SIMs alone, `sim-units.ts`) with one variant `SIM-<carrier>`
 * (`SIM-<id>` when taken or not a valid SKU). One carrier at a time (an advisory lock), so two
 * orders never make two.
 */
async function simKitOfCarrier(tx: Transaction, carrierId: number): Promise<number> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`sim-kit-variant:${carrierId}`]);
  const [carrier] = await tx.query<{ name: string; variant_id: number | null }>(
    `SELECT c.name,
       (SELECT v.id::int FROM product_variants v JOIN products p ON p.id = v.product_id
        WHERE v.sim_carrier_id = c.id AND v.status = 'active' AND p.status = 'active'
          AND p.kind = 'sim_kit'
        ORDER BY v.id LIMIT 1) AS variant_id
     FROM vendors c WHERE c.id = $1`,
    [carrierId],
  );
  if (carrier!.variant_id !== null) return carrier!.variant_id;
  return catalogueSupportItem(tx, {
    name: `${carrier!.name} SIM kit`,
    kind: 'sim_kit',
    sku: `SIM-${carrier!.name
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')}`,
    fallbackSku: `SIM-${carrierId}`,
    link: { column: 'sim_carrier_id', id: carrierId },
  });
}

type SubscriberFacts = {
  id: number;
  client_carrier_id: number;
  program: 'lifeline' | 'tribal' | 'acp-legacy' | 'prepaid';
  name: string;
  phone: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: UsAddress['state'];
  zip: string;
};

/** Where a support order goes unless told: the subscriber's newest order's ship-to, else home. */
async function defaultShipTo(tx: Transaction, subscriber: SubscriberFacts): Promise<ShipTo> {
  const [last] = await tx.query<ShipTo>(
    `SELECT t.name, t.company, t.line1, t.line2, t.city, t.state, t.zip, t.phone
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id
     WHERE o.subscriber_id = $1 ORDER BY o.id DESC LIMIT 1`,
    [subscriber.id],
  );
  return (
    last ?? {
      name: subscriber.name,
      line1: subscriber.line1,
      line2: subscriber.line2,
      city: subscriber.city,
      state: subscriber.state,
      zip: subscriber.zip,
      phone: subscriber.phone,
    }
  );
}

/** Submits a pending support order to the queue: validated, ready or on hold with why. */
async function submit(tx: Transaction, acting: Acting, orderId: number) {
  const failure = await validateOrder(tx, acting, orderId);
  await settleValidation(tx, acting, orderId, failure);
}

export async function createSupportOrder(
  tx: Transaction,
  acting: Acting,
  input: z.output<typeof createSupportOrderSchema>,
): Promise<SupportOrderRow> {
  const [subscriber] = await tx.query<SubscriberFacts>(
    `SELECT id::int AS id, client_carrier_id::int AS client_carrier_id, program,
       first_name || ' ' || last_name AS name, phone, service_line1 AS line1,
       service_line2 AS line2, service_city AS city, service_state AS state, service_zip AS zip
     FROM subscribers WHERE id = $1`,
    [input.subscriber_id],
  );
  if (!subscriber) throw fieldError('subscriber_id', 'Choose a subscriber.');
  const variantIds: (number | null)[] = [];
  for (const item of input.items) {
    variantIds.push(
      item.variant_id ??
        (item.sim_kit
          ? await simKitOfCarrier(tx, subscriber.client_carrier_id)
          : await variantOfAccessory(tx, item.accessory_id!)),
    );
  }
  const items = await tx.query<{ id: number; sku: string; kind: string }>(
    `SELECT v.id::int AS id, v.sku, p.kind FROM product_variants v
     JOIN products p ON p.id = v.product_id
     WHERE v.id = ANY ($1::bigint[]) AND v.status = 'active' AND p.status = 'active'`,
    [variantIds],
  );
  const byId = new Map(items.map((item) => [item.id, item]));
  const problems: FieldErrors = {};
  variantIds.forEach((variantId, n) => {
    if (variantId === null || !byId.has(variantId)) {
      problems[`items.${n}.variant_id`] = ['Choose an active item.'];
    } else if (variantIds.indexOf(variantId) !== n) {
      problems[`items.${n}.variant_id`] = ['This item is listed already: change its quantity.'];
    }
  });
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);

  // One subscriber's support orders in turn: the second of two at once sees the first.
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`support-order:${subscriber.id}`]);
  const earlier = await tx.query<{ number: string; sku: string; day: string }>(
    `SELECT o.number, l.sku, to_char(o.created_at AT TIME ZONE st.time_zone, 'YYYY-MM-DD') AS day
     FROM order_settings st, orders o JOIN order_lines l ON l.order_id = o.id
     WHERE o.subscriber_id = $1 AND o.status <> 'cancelled'
       AND o.created_at > now() - make_interval(days => st.support_duplicate_days)
       AND (l.variant_id = ANY ($2::bigint[]) OR l.substituted_from_variant_id = ANY ($2::bigint[]))
     ORDER BY o.id DESC LIMIT 5`,
    [subscriber.id, variantIds],
  );
  if (earlier.length > 0) {
    if (!input.override_duplicate) {
      const [settings] = await tx.query<{ days: number }>(
        `SELECT support_duplicate_days AS days FROM order_settings`,
      );
      const found = earlier.map((row) => `${row.sku} on ${row.number} (${row.day})`).join(', ');
      throw new ConflictError(
        `This subscriber had the same item within ${settings!.days} days: ${found}. A manager may override.`,
      );
    }
    if (!canAccess(accessSubjectOf(acting.actor), SUPPORT_ORDER_APPROVE_ACCESS)) {
      throw new ForbiddenError(SUPPORT_ORDER_APPROVE_ACCESS, 'You cannot override a duplicate.');
    }
  }

  const created = await createOrder(tx, acting, {
    source: 'support',
    fulfilmentType: 'support',
    clientCarrierId: subscriber.client_carrier_id,
    program: subscriber.program,
    customer: { subscriberId: subscriber.id },
    shipTo: input.ship_to ?? (await defaultShipTo(tx, subscriber)),
    shipMethod: input.ship_method,
    notes: input.note ?? null,
    // Sent at no charge, outside any listing; the pick confirms accessories by hand.
    lines: input.items.map((item, n) => ({
      sellable: { kind: 'variant', id: variantIds[n]! },
      listingId: null,
      qty: item.qty,
      unitPriceCents: 0,
    })),
    awaitsApproval: true,
  });
  const needsApproval = items.some((item) => item.kind === 'device');
  const duplicateOf = earlier.length > 0 ? [...new Set(earlier.map((row) => row.number))] : null;
  await tx.query(
    `INSERT INTO support_orders (order_id, reason, note, needs_approval, duplicate_of,
       duplicate_override_by)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      created.id,
      input.reason,
      input.note ?? null,
      needsApproval,
      duplicateOf,
      duplicateOf ? acting.actor.userId : null,
    ],
  );
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'support_order.created',
    entityType: 'order',
    entityId: created.id,
    after: {
      number: created.number,
      reason: input.reason,
      needs_approval: needsApproval,
      duplicate_of: duplicateOf,
    },
  });
  if (!needsApproval) await submit(tx, acting, created.id);
  return supportOrderRow(tx, created.id);
}

/** Locks a support order waiting for approval: 404, or 409 when it waits no longer. */
async function awaitingApproval(tx: Transaction, orderId: number) {
  const [order] = await tx.query<{
    number: string;
    status: string;
    needs_approval: boolean;
    approved_at: string | null;
  }>(
    `SELECT o.number, o.status, so.needs_approval, so.approved_at::text AS approved_at
     FROM orders o JOIN support_orders so ON so.order_id = o.id
     WHERE o.id = $1 FOR UPDATE OF o, so`,
    [orderId],
  );
  if (!order) throw new NotFoundError(`There is no support order with id ${orderId}.`);
  if (!order.needs_approval || order.approved_at !== null || order.status !== 'pending') {
    throw new ConflictError(`${order.number} does not wait for approval.`);
  }
  return order;
}

/** A manager approves a support order with a device: validated, it goes to the queue. */
export async function approveSupportOrder(
  tx: Transaction,
  acting: Acting,
  orderId: number,
): Promise<SupportOrderRow> {
  const order = await awaitingApproval(tx, orderId);
  await tx.query(
    `UPDATE support_orders SET approved_at = now(), approved_by = $2 WHERE order_id = $1`,
    [orderId, acting.actor.userId],
  );
  await writeOrderEvent(tx, orderId, acting.actor, 'support_approved', {});
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'support_order.approved',
    entityType: 'order',
    entityId: orderId,
    after: { number: order.number },
  });
  await submit(tx, acting, orderId);
  return supportOrderRow(tx, orderId);
}

/** A manager refuses a support order waiting for approval: it is cancelled with the reason. */
export async function rejectSupportOrder(
  tx: Transaction,
  acting: Acting,
  orderId: number,
  reason: string,
): Promise<SupportOrderRow> {
  await awaitingApproval(tx, orderId);
  await runTransition(tx, orderStore, {
    id: orderId,
    action: 'reject',
    actor: acting.actor,
    meta: acting.meta,
    reason,
  });
  return supportOrderRow(tx, orderId);
}
