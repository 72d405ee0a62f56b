// Issue 18's gates (fulfilment and outbound shipping): what a bench server adds for them.
// - Auto-assignment: ASSIGN_ORDERS ready orders assigned through the API in batches of the
//   assignment page's largest, against one raw statement reserving the same orders' units.
// - The pick station's scan and the dock's scan-to-ship, on F1 like the other stations: a pool
//   of assigned one-unit orders to pick, and a pool of labelled parcels to scan out.
// - The label print: a batch of LABEL_PRINT_PAGES labels of the dock's parcels, downloaded as
//   one PDF (run.mjs times it against pdf-lib and bwip-js alone writing as many pages).
import { LABEL_STEP_MAX, MAX_BATCH_ORDERS } from '@inventory/contract';
import { listOnCarrierChannel } from './selling.mjs';

const ASSIGN_ORDERS = Number(process.env.BENCH_ASSIGN_ORDERS || 10_000);
/** Labels of the print gate's batch: 1,000 pages in one PDF (issue 18). */
export const LABEL_PRINT_PAGES = 1_000;
const CONCURRENT = 10;

/** Runs `work(i)` for i in [0, n) with CONCURRENT at a time. */
async function inParallel(n, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (next < n) {
        const i = next;
        next += 1;
        await work(i);
      }
    }),
  );
}

async function call(appPort, path, body, headers) {
  const response = await fetch(`http://127.0.0.1:${appPort}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok)
    throw new Error(`${path} failed: ${response.status} ${JSON.stringify(answer.message)}`);
  return answer.data;
}

/**
 * One statement reserving a device for every unit of the orders, oldest box first (the floor of
 * the auto-assignment): the units ranked per variant, the matching in-stock devices ranked per
 * variant, the n-th unit given the n-th device, and the devices marked reserved.
 */
const RAW_RESERVATION = `
WITH units AS (
  SELECT l.id AS line_id, l.variant_id,
    row_number() OVER (PARTITION BY l.variant_id ORDER BY o.sla_due_at, o.id, l.id, g) AS rank
  FROM orders o JOIN order_lines l ON l.order_id = o.id
  CROSS JOIN generate_series(1, l.qty) AS g
  WHERE o.id = ANY ($1::bigint[])
),
wanted AS (SELECT variant_id, count(*)::int AS need FROM units GROUP BY variant_id),
devices_for AS (
  SELECT w.variant_id, c.id AS device_id,
    row_number() OVER (PARTITION BY w.variant_id ORDER BY c.sealed_at, c.box_id, c.id) AS rank
  FROM wanted w
  JOIN product_variants v ON v.id = w.variant_id
  JOIN products p ON p.id = v.product_id
  CROSS JOIN LATERAL (
    SELECT d.id, b.sealed_at, b.id AS box_id FROM devices d
    JOIN inventory_boxes b ON b.id = d.inventory_box_id
    WHERE d.status = 'in_stock' AND d.hold_reason IS NULL AND d.model_id = p.model_id
      AND (v.grade IS NULL OR v.grade = d.grade) AND (v.color_id IS NULL OR v.color_id = d.color_id)
      AND b.status IN ('located', 'partially_picked')
    ORDER BY b.sealed_at, b.id, d.id LIMIT w.need FOR UPDATE OF d
  ) c
),
placed AS (
  INSERT INTO order_line_units (order_line_id, variant_id, device_id, status)
  SELECT u.line_id, u.variant_id, f.device_id, 'allocated'
  FROM units u JOIN devices_for f ON f.variant_id = u.variant_id AND f.rank = u.rank
  RETURNING device_id
)
UPDATE devices SET status = 'reserved' WHERE id IN (SELECT device_id FROM placed)`;

/**
 * Orders to assign (prepaid orders of the bench carrier through its API, priced by a prepaid
 * plan of their models), the auto-assignment against its floor, then the pools: the assigned
 * one-unit orders, half of them picked and labelled for the dock, the rest left to pick.
 */
export async function createFulfilmentStock(db, appPort, session, { carrierKey, excludeSkus }) {
  // The variants with the most sellable stock (but `excludeSkus`), an order for each unit in
  // stock up to ASSIGN_ORDERS, so the assignment reserves rather than holds.
  const variants = await db.query(
    `SELECT * FROM (
       SELECT v.id, v.sku, p.model_id, pts_sellable_available(v.id, NULL, NULL) AS available
       FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE NOT (v.sku = ANY ($1::text[]))) sellable
     WHERE available > 0 ORDER BY available DESC, id LIMIT 500`,
    [excludeSkus],
  );
  const skus = [];
  for (const variant of variants) {
    const room = ASSIGN_ORDERS - skus.length;
    skus.push(
      ...Array.from({ length: Math.min(room, Number(variant.available)) }, () => variant.sku),
    );
  }
  // A registry too small to have sellable stock leaves the gates without pools (voided).
  if (skus.length === 0) return {};
  await listOnCarrierChannel(
    db,
    variants.map((variant) => variant.id),
  );
  const [carrier] = await db.query("SELECT id FROM vendors WHERE name = 'Bench Carrier'");
  await db.query(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, effective_from)
     SELECT DISTINCT $1::bigint, 'prepaid', NULL::text, model_id, 1, 2001, 'Bench prepaid',
       4.5, DATE '2020-01-01'
     FROM unnest($2::bigint[]) AS m (model_id)`,
    [carrier.id, variants.map((variant) => variant.model_id)],
  );
  const run = `${process.pid}-${Date.now() % 1_000_000}`;
  await inParallel(skus.length, (i) =>
    call(
      appPort,
      '/carrier/orders',
      {
        external_ref: `BENCH-FUL-${run}-${i}`,
        program: 'prepaid',
        fulfilment_type: 'prepaid',
        subscriber: {
          external_id: `PRE-${run}-${i}`,
          first_name: 'Bench',
          last_name: `Buyer ${i}`,
          phone: '+1 214 555 0100',
          service_address: {
            line1: `${i} Pick ${run} Ave`,
            city: 'Dallas',
            state: 'TX',
            zip: '75201',
          },
        },
        items: [{ sku: skus[i], qty: 1 }],
      },
      { 'x-api-key': carrierKey, 'idempotency-key': `BENCH-FUL-${run}-${i}` },
    ),
  );
  await db.exec('ANALYZE orders, order_lines, order_line_units');

  // The floor first, rolled back, on the orders the auto-assignment is about to take.
  const chosen = (
    await db.query(
      `SELECT id FROM orders WHERE status = 'ready' AND fulfilment_type = 'prepaid'
       ORDER BY CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2
         ELSE 3 END, COALESCE(sla_due_at, 'infinity'::timestamptz), id
       LIMIT $1`,
      [skus.length],
    )
  ).map((row) => row.id);
  let rawMs = 0;
  let rawUnits = 0;
  await db
    .transaction(async (tx) => {
      const started = performance.now();
      const reserved = await tx.query(`${RAW_RESERVATION} RETURNING id`, [chosen]);
      rawMs = performance.now() - started;
      rawUnits = reserved.length;
      throw new RolledBack();
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error;
    });

  const bearer = { authorization: `Bearer ${session.token}` };
  const assignee = await adminId(db);
  let assigned = 0;
  let held = 0;
  let units = 0;
  const started = performance.now();
  for (let left = chosen.length; left > 0; left -= MAX_BATCH_ORDERS) {
    const batch = await call(
      appPort,
      '/fulfilment/auto-assignments',
      {
        assignee_id: assignee,
        count: Math.min(left, MAX_BATCH_ORDERS),
        fulfilment_type: 'prepaid',
      },
      bearer,
    );
    assigned += batch.assigned.length;
    held += batch.held.length;
    units += batch.units_reserved;
  }
  const appMs = performance.now() - started;

  const toPick = await db.query(
    `SELECT o.id AS order_id, min(d.imei) AS imei FROM orders o
     JOIN order_lines l ON l.order_id = o.id
     JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'allocated'
     JOIN devices d ON d.id = u.device_id
     WHERE o.assignee_id = $1 AND o.status = 'assigned' AND o.fulfilment_type = 'prepaid'
     GROUP BY o.id HAVING count(*) = 1 ORDER BY o.id`,
    [assignee],
  );
  process.stderr.write(
    `  fulfilment: ${assigned} of ${chosen.length} orders assigned (${held} held), ` +
      `${toPick.length} one-unit orders to pick\n`,
  );
  const shipping = toPick.slice(0, Math.floor(toPick.length / 2));
  await inParallel(shipping.length, (i) =>
    call(
      appPort,
      `/fulfilment/picks/${shipping[i].order_id}/scans`,
      { code: shipping[i].imei, station: 'bench', queue: 'prepaid' },
      bearer,
    ),
  );
  // The dock's parcels, labelled in two batches: the first LABEL_PRINT_PAGES make the batch the
  // label print gate downloads as one PDF.
  const batches = [];
  for (const orders of [
    shipping.slice(0, LABEL_PRINT_PAGES),
    shipping.slice(LABEL_PRINT_PAGES),
  ].filter((part) => part.length > 0)) {
    const batch = await call(appPort, '/label-batches', { format: 'pdf' }, bearer);
    for (let at = 0; at < orders.length; at += LABEL_STEP_MAX) {
      await call(
        appPort,
        `/label-batches/${batch.id}/labels`,
        { order_ids: orders.slice(at, at + LABEL_STEP_MAX).map((order) => order.order_id) },
        bearer,
      );
    }
    batches.push(batch.id);
  }
  const parcels = await db.query(
    `SELECT tracking_number, label_batch_id::int AS batch_id FROM packages
     WHERE label_batch_id = ANY ($1::bigint[]) AND status = 'label_created' ORDER BY id`,
    [batches],
  );
  const printed = parcels.filter((parcel) => parcel.batch_id === batches[0]);
  return {
    pickPool: toPick
      .slice(shipping.length)
      .map((order) => ({ id: order.order_id, imei: order.imei })),
    shipPool: parcels.map((parcel) => parcel.tracking_number),
    labelPrint:
      printed.length === LABEL_PRINT_PAGES
        ? { batchId: batches[0], trackingNumbers: printed.map((parcel) => parcel.tracking_number) }
        : null,
    autoAssign: {
      orders: chosen.length,
      assigned,
      held,
      units,
      rawUnits,
      appSeconds: appMs / 1000,
      rawSeconds: rawMs / 1000,
    },
  };
}

class RolledBack extends Error {}

async function adminId(db) {
  const [admin] = await db.query("SELECT id FROM users WHERE user_name = 'admin'");
  return admin.id;
}
