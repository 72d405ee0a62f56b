import type { ReshipStatistics } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test/api-client.js';
import { createGeneratedTestApp, timelineMismatchSql } from '../../test/generated-database.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';
import type { GenerateSummary } from '../../db/generate.js';

/** The reships and cancellation requests of a generated database: rows whose invariants hold. */

let t: TestApp;
let admin: ApiClient;
let summary: GenerateSummary;
let count: (sql: string) => Promise<number>;

beforeAll(async () => {
  ({ t, admin, summary, count } = await createGeneratedTestApp());
}, 120_000);
afterAll(() => t.close());

describe('generated reships', () => {
  it('reship a few per cent of the shipped orders, one waiting request per order', async () => {
    const shipped = await count('SELECT count(*) AS n FROM orders WHERE shipped_at IS NOT NULL');
    expect(summary.reships).toBe(await count('SELECT count(*) AS n FROM reships'));
    expect(summary.reships).toBeGreaterThan(shipped * 0.01);
    expect(summary.reships).toBeLessThan(shipped * 0.06);
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT original_order_id FROM reships
        WHERE status IN ('requested', 'approved') GROUP BY 1 HAVING count(*) > 1) twice`),
    ).toBe(0);
    const statuses = await t.db.query<{ status: string }>(
      'SELECT DISTINCT status FROM reships ORDER BY status',
    );
    // Requests of the last two days wait: a few at 2,000 devices, if any.
    expect(statuses.map((row) => row.status)).toEqual(
      expect.arrayContaining(['denied', 'order_created']),
    );
    expect(await count(timelineMismatchSql('reships', 'reship_events', 'reship_id'))).toBe(0);
  });

  it('make a child order for each approved one and leave its original reshipped', async () => {
    expect(summary.reshipOrders).toBe(
      await count("SELECT count(*) AS n FROM reships WHERE status = 'order_created'"),
    );
    // The child: of the original's customer and lines, urgent, at no charge, made at the
    // decision; the original reshipped exactly when a request made a child, the step on its
    // timeline. Only a returned, lost or delivered order is reshipped.
    expect(
      await count(`SELECT count(*) AS n FROM reships r
        JOIN orders o ON o.id = r.original_order_id
        LEFT JOIN orders n ON n.id = r.new_order_id
        WHERE (r.status = 'order_created') <> (o.status = 'reshipped')
          OR (n.id IS NOT NULL AND (n.source <> 'reship' OR n.parent_order_id <> o.id
            OR n.priority <> 'high' OR n.total_cents <> 0 OR n.created_at <> r.decided_at
            OR n.fulfilment_type <> o.fulfilment_type
            OR n.subscriber_id IS DISTINCT FROM o.subscriber_id
            OR (SELECT string_agg(variant_id || '×' || qty, ',') FROM order_lines WHERE order_id = n.id)
              <> (SELECT string_agg(variant_id || '×' || qty, ',') FROM order_lines WHERE order_id = o.id)))
          OR (r.status = 'order_created' AND NOT EXISTS (SELECT 1 FROM order_events e
            WHERE e.order_id = o.id AND e.type = 'reshipped'
              AND e.from_status IN ('returned', 'lost', 'delivered')))
          OR r.decided_at < r.created_at
          OR (r.reason = 'return_to_sender') <> (r.ship_to IS NOT NULL)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM orders WHERE source = 'reship'
        AND NOT EXISTS (SELECT 1 FROM reships r WHERE r.new_order_id = orders.id)`),
    ).toBe(0);
    // A child order labelled or on its way has its parcel, scanned out in that day's gaylord.
    expect(
      await count(`SELECT count(*) AS n FROM orders o
        LEFT JOIN packages p ON p.order_id = o.id
        WHERE o.source = 'reship' AND o.status IN ('labeled', 'shipped', 'delivered')
          AND (p.id IS NULL OR (p.scanned_out_at IS NOT NULL AND p.gaylord_id IS NULL)
            OR (o.status = 'delivered') <> (p.status = 'delivered'))`),
    ).toBe(0);
    const orders = await admin.get('/reships/orders');
    expect(orders.statusCode, orders.body).toBe(200);
    expect(bodyOf(orders).data).toMatchObject({ total: summary.reshipOrders });
  });

  it('reship again, by a manager, a child order that came back undeliverable', async () => {
    // About 0.2 % of the orders shipped: a few at 2,000 devices.
    const shipped = await count('SELECT count(*) AS n FROM orders WHERE shipped_at IS NOT NULL');
    const second = await count('SELECT count(*) AS n FROM reships WHERE earlier_reships = 1');
    expect(second).toBeGreaterThan(0);
    expect(second).toBeLessThan(shipped * 0.01);
    expect(
      await count(`SELECT count(*) AS n FROM reships r
        JOIN orders o ON o.id = r.original_order_id
        LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
        WHERE r.earlier_reships NOT IN (0, 1) OR (r.earlier_reships = 1) <> (o.parent_order_id IS NOT NULL)
          -- Counted as the service counts them: the reships made up the order's chain of parents.
          OR r.earlier_reships <> (SELECT count(*) FROM reships e
            WHERE e.original_order_id IN (o.id, o.parent_order_id) AND e.status = 'order_created'
              AND e.id <> r.id)
          OR (r.earlier_reships = 1 AND (o.source <> 'reship' OR r.reason <> 'return_to_sender'
            OR r.ship_to IS NULL OR p.status <> 'returned' OR p.status_event_at >= r.created_at
            OR r.ship_to ->> 'line2' = (SELECT t.line2 FROM order_ship_to t WHERE t.order_id = o.id)
            -- The manager's decision: the generator's user, who holds order.reship-approve.
            OR (r.status <> 'requested' AND NOT EXISTS (SELECT 1 FROM user_roles ur
              JOIN role_permissions rp ON rp.role_id = ur.role_id
              JOIN permissions pm ON pm.id = rp.permission_id
              WHERE ur.user_id = r.decided_by AND pm.name = 'order.reship-approve'))))`),
    ).toBe(0);
    // A child order is back (returned) only when its parcel came back; each one made has its parcel.
    expect(
      await count(`SELECT count(*) AS n FROM orders o
        LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
        WHERE o.source = 'reship' AND o.status IN ('returned', 'reshipped')
          AND (p.status IS DISTINCT FROM 'returned' OR p.status_event_at IS NULL)`),
    ).toBe(0);
  });

  it('are counted by the statistics as the rows are', async () => {
    const from = '2025-11-01';
    const to = '2026-10-31';
    const response = await admin.get(`/reships/statistics?from=${from}&to=${to}`);
    expect(response.statusCode, response.body).toBe(200);
    const statistics = bodyOf<ReshipStatistics>(response).data;
    const inRange = `FROM reships WHERE status <> 'denied'
      AND order_business_day(created_at) BETWEEN '${from}' AND '${to}'`;
    expect(statistics.reships).toBe(await count(`SELECT count(*) AS n ${inRange}`));
    expect(statistics.reships).toBeGreaterThan(0);
    expect(statistics.by_day.reduce((sum, day) => sum + day.reships, 0)).toBe(statistics.reships);
    const byReason = await t.db.query<{ key: string; reships: number }>(
      `SELECT reason AS key, count(*)::int AS reships ${inRange} GROUP BY reason
       ORDER BY reships DESC, key`,
    );
    expect(statistics.by_reason).toEqual(byReason);
    expect(statistics.by_carrier).toEqual([{ key: 'usps', reships: statistics.reships }]);
    expect(statistics.shipped).toBe(
      await count(`SELECT count(*) AS n FROM orders
        WHERE order_business_day(shipped_at) BETWEEN '${from}' AND '${to}'`),
    );
  });
});

describe('generated cancellation requests', () => {
  it('ask to cancel one or two orders in a hundred, one open request per order', async () => {
    const orders = await count('SELECT count(*) AS n FROM orders');
    expect(summary.cancelRequests).toBe(await count('SELECT count(*) AS n FROM cancel_requests'));
    expect(summary.cancelRequests).toBeGreaterThan(orders * 0.005);
    expect(summary.cancelRequests).toBeLessThan(orders * 0.03);
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT order_id FROM cancel_requests
        WHERE status IN ('requested', 'approved', 'label_voided', 'intercept_requested')
        GROUP BY 1 HAVING count(*) > 1) twice`),
    ).toBe(0);
    const statuses = await t.db.query<{ status: string }>(
      'SELECT DISTINCT status FROM cancel_requests ORDER BY status',
    );
    expect(statuses.map((row) => row.status)).toEqual([
      'cancelled',
      'denied',
      'intercept_requested',
      'requested',
      'return_required',
    ]);
    expect(
      await count(
        timelineMismatchSql('cancel_requests', 'cancel_request_events', 'cancel_request_id'),
      ),
    ).toBe(0);
  });

  it('stand where their orders are', async () => {
    // Carried out: the order cancelled, its timeline saying so. Intercepted: its parcel on its
    // way. Waiting: at the stage its order is in. Decided after the request.
    expect(
      await count(`SELECT count(*) AS n FROM cancel_requests c
        JOIN orders o ON o.id = c.order_id
        LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
        WHERE (c.status = 'cancelled' AND (o.status <> 'cancelled' OR NOT EXISTS (
            SELECT 1 FROM order_events e WHERE e.order_id = o.id AND e.type = 'cancelled'
              AND (e.data ->> 'cancel_request')::bigint = c.id)))
          OR (c.status = 'intercept_requested' AND (o.status <> 'shipped'
            OR c.package_id IS DISTINCT FROM p.id OR p.status <> 'scanned_out'))
          OR (c.status = 'requested' AND c.stage <> CASE
            WHEN p.status = 'scanned_out' THEN 'shipped' WHEN o.status = 'labeled' THEN 'labeled'
            WHEN o.status IN ('pending', 'ready', 'on_hold', 'assigned', 'in_progress',
              'fulfilled') THEN 'pre_label' END)
          OR (c.status = 'requested') <> (c.decided_at IS NULL)
          OR c.decided_at < c.created_at
          OR (c.requester = 'carrier' AND c.status = 'cancelled') <> (
            c.status <> 'requested' AND c.decided_by IS NULL)`),
    ).toBe(0);
    // Needing a return: its order shipped or delivered, the parcel named, and an RMA opened at the
    // decision, "cancelled after shipping", expecting back every device the order shipped, on the
    // RMA's and each device's timelines.
    expect(
      await count(`SELECT count(*) AS n FROM cancel_requests c
        JOIN orders o ON o.id = c.order_id
        LEFT JOIN rmas r ON r.id = c.rma_id
        WHERE (c.status = 'return_required') <> (r.id IS NOT NULL)
          OR (r.id IS NOT NULL AND (c.stage <> 'shipped' OR o.status NOT IN ('shipped', 'delivered')
            OR c.package_id IS NULL OR r.order_id <> o.id OR r.status <> 'requested'
            OR r.reason <> 'cancelled_after_shipping' OR r.created_at <> c.decided_at
            OR r.note <> 'Cancelled after shipping: ' || c.reason
            OR (SELECT string_agg(u.device_id::text, ',' ORDER BY u.device_id)
                FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
                WHERE l.order_id = o.id AND u.status = 'shipped')
              IS DISTINCT FROM (SELECT string_agg(l.device_id::text, ',' ORDER BY l.device_id)
                FROM rma_lines l WHERE l.rma_id = r.id AND l.open)
            OR EXISTS (SELECT 1 FROM rma_lines l WHERE l.rma_id = r.id AND NOT EXISTS (
              SELECT 1 FROM device_events e WHERE e.device_id = l.device_id
                AND e.type = 'rma_requested' AND e.ref_id = r.id))))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM cancel_requests c WHERE c.status = 'return_required'
        AND EXISTS (SELECT 1 FROM cancel_request_events e WHERE e.cancel_request_id = c.id
          AND e.type = 'return_required')`),
    ).toBeGreaterThan(0);
    expect(await count(timelineMismatchSql('rmas', 'rma_events', 'rma_id'))).toBe(0);
    const list = await admin.get('/cancel-requests');
    expect(list.statusCode, list.body).toBe(200);
  });
});
