import { isLuhnValid, parseIccid, type DeviceLookup, type ReceiveScan } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { deviceStepMismatchSql, timelineMismatchSql } from '../test/generated-database.js';
import { bodyOf, type TestApp } from '../test/test-app.js';
import { generateDatabase, invoiceStates, type GenerateSummary } from './generate.js';

/** The data generator (npm run db:generate): a small database whose invariants hold. */

const DEVICES = 2000;
let t: TestApp;
let admin: ApiClient;
let summary: GenerateSummary;

const one = async <T>(sql: string, params: unknown[] = []) =>
  (await t.db.query<T & Record<string, unknown>>(sql, params))[0]!;
const count = async (sql: string) => Number((await one<{ n: number }>(sql)).n);

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  summary = await t.db.transaction((tx) =>
    generateDatabase(tx, { devices: DEVICES, seed: 7, anchor: new Date('2026-11-01') }),
  );
}, 120_000);
afterAll(() => t.close());

describe('a generated database', () => {
  it('has the devices, invoices and manifests asked for', async () => {
    expect(summary).toMatchObject({ devices: DEVICES, invoices: 20, invoiceLines: 80 });
    // The devices bought on the invoices; the phones traded in and accepted are devices too.
    expect(await count('SELECT count(*) AS n FROM devices WHERE invoice_id IS NOT NULL')).toBe(
      DEVICES,
    );
    expect(await count('SELECT count(*) AS n FROM devices WHERE invoice_id IS NULL')).toBe(
      await count('SELECT count(device_id) AS n FROM trade_ins'),
    );
    const states = invoiceStates(20);
    const byStatus = await t.db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM purchase_invoices GROUP BY status',
    );
    expect(Object.fromEntries(byStatus.map((row) => [row.status, row.n]))).toEqual({
      closed: states.closed,
      reconciled: states.reconciled,
      received: states.received,
      receiving: states.receiving,
      expected: states.expected,
    });
    expect(summary.blacklistEntries).toBeGreaterThan(0);
  });

  it('gives every device a valid IMEI whose TAC names its model', async () => {
    const imeis = await t.db.query<{ imei: string }>('SELECT imei FROM devices');
    expect(imeis.filter(({ imei }) => !isLuhnValid(imei))).toEqual([]);
    const manifest = await t.db.query<{ imei: string }>('SELECT imei FROM invoice_imeis');
    expect(manifest.filter(({ imei }) => !isLuhnValid(imei))).toEqual([]);
    expect(
      await count(`SELECT count(*) AS n FROM devices d
        LEFT JOIN tac_numbers tn ON tn.tac = left(d.imei, 8) AND tn.active
        WHERE tn.model_id IS DISTINCT FROM d.model_id OR d.tac <> left(d.imei, 8)`),
    ).toBe(0);
    // Unique across the registry, manifests without a device and never-received blacklist IMEIs.
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT imei FROM (SELECT imei FROM devices
        UNION ALL SELECT imei FROM invoice_imeis WHERE device_id IS NULL) i
        GROUP BY imei HAVING count(*) > 1) repeated`),
    ).toBe(0);
  });

  it('keeps devices, boxes, invoices and manifests consistent', async () => {
    // A box counts every device scanned into it; those still in it are in receiving or production.
    expect(
      await count(`SELECT count(*) AS n FROM warehouse_boxes wb WHERE wb.qty_scanned <>
        (SELECT count(*) FROM device_events e WHERE e.type = 'received' AND e.container = wb.code)
        OR (wb.status <> 'emptied' AND wb.qty_scanned <>
          (SELECT count(*) FROM devices d WHERE d.warehouse_box_id = wb.id))
        OR (wb.status = 'emptied' AND EXISTS (SELECT 1 FROM devices d WHERE d.warehouse_box_id = wb.id))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM devices d
        JOIN purchase_invoices i ON i.id = d.invoice_id
        LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
        WHERE (i.status = 'closed') <> (d.warehouse_box_id IS NULL)
          OR (wb.id IS NOT NULL AND (wb.invoice_id <> d.invoice_id
            -- A failed device raised for repair stays in its box through the repair line, to
            -- its release, scrap or harvest.
            OR d.status NOT IN ('received', 'hold', 'in_production', 'graded', 'failed_qc',
              'in_repair', 'repaired', 'scrapped', 'parts')))
          OR d.vendor_id <> i.vendor_id`),
    ).toBe(0);
    // Held exactly when an open blacklist entry lists the IMEI, for devices still in receiving.
    expect(
      await count(`SELECT count(*) AS n FROM devices d WHERE d.warehouse_box_id IS NOT NULL
        AND (d.status = 'hold') <> EXISTS (SELECT 1 FROM blacklist_entries be
          WHERE be.imei = d.imei AND be.cleared_at IS NULL)`),
    ).toBe(0);
    // Each device bought has its manifest row on its invoice; a row is open until the invoice
    // closes.
    expect(
      await count(`SELECT count(*) AS n FROM devices d LEFT JOIN invoice_imeis ii
        ON ii.device_id = d.id AND ii.imei = d.imei AND ii.invoice_id = d.invoice_id
        WHERE ii.id IS NULL AND d.invoice_id IS NOT NULL`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM invoice_imeis ii
        JOIN purchase_invoices i ON i.id = ii.invoice_id WHERE ii.open = (i.status = 'closed')
          OR (ii.device_id IS NULL) <> (ii.match_status IN ('expected', 'missing'))
          OR (i.status = 'closed' AND ii.match_status IN ('missing', 'unexpected')
            AND ii.decision IS NULL)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM invoice_lines l WHERE l.qty <>
        GREATEST(1, (SELECT count(*) FROM invoice_imeis ii WHERE ii.line_id = l.id AND ii.from_manifest))`),
    ).toBe(0);
    // Every device has its timeline, from its receipt or its trade-in.
    expect(
      await count(`SELECT count(*) AS n FROM devices d WHERE NOT EXISTS
        (SELECT 1 FROM device_events e WHERE e.device_id = d.id
           AND e.type = CASE WHEN d.invoice_id IS NULL THEN 'traded_in' ELSE 'received' END)`),
    ).toBe(0);
  });

  it('serves the app: a lookup finds a device, a new box scans an expected IMEI', async () => {
    const { imei } = await one<{ imei: string }>(
      "SELECT imei FROM devices WHERE status = 'in_stock' ORDER BY id LIMIT 1",
    );
    const lookup = await admin.get(`/devices/lookup?code=${imei}`);
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(bodyOf<DeviceLookup>(lookup).data).toMatchObject({
      matched_by: 'imei',
      card: { device: { imei, status: 'in_stock' } },
    });

    const expected = await one<{ invoice_id: number; imei: string }>(
      `SELECT ii.invoice_id, ii.imei FROM invoice_imeis ii
       JOIN purchase_invoices i ON i.id = ii.invoice_id
       WHERE i.status = 'receiving' AND ii.match_status = 'expected' ORDER BY ii.id LIMIT 1`,
    );
    // The sequences carry on after the generated rows: the new box gets a free id and code.
    const created = await admin.post('/warehouse-boxes', { invoice_id: expected.invoice_id });
    expect(created.statusCode, created.body).toBe(201);
    const box = bodyOf<{ id: number }>(created).data.id;
    const scanned = await admin.post(`/warehouse-boxes/${box}/scans`, { code: expected.imei });
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(bodyOf<ReceiveScan>(scanned).data).toMatchObject({ result: 'added' });
  });

  it('sells from the stock: a catalogue, retailers and a year of orders whose figures add up', async () => {
    expect(summary).toMatchObject({ orders: DEVICES, retailers: 200 });
    expect(summary.variants).toBe(summary.products * 3);
    expect(
      await count(`SELECT count(*) AS n FROM orders o
        WHERE NOT EXISTS (SELECT 1 FROM order_ship_to s WHERE s.order_id = o.id)
           OR (SELECT count(*) FROM order_lines l WHERE l.order_id = o.id) <> 1
           OR o.total_cents <> (SELECT sum(qty * unit_price_cents) FROM order_lines l
                                WHERE l.order_id = o.id)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM orders
        WHERE created_at < '2026-11-01'::timestamptz - interval '366 days'
           OR created_at > '2026-11-01'::timestamptz + interval '1 day'`),
    ).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM orders WHERE status = 'on_hold'"),
    ).toBeGreaterThan(0);
    // The day counts kept by trigger equal a recount of the orders.
    expect(
      await count(`SELECT count(*) AS n FROM (
          SELECT received_day, source, fulfilment_type, count(*) AS received FROM orders
          GROUP BY 1, 2, 3) o
        FULL JOIN (SELECT day, source, fulfilment_type, sum(received) AS received
          FROM order_day_counts GROUP BY 1, 2, 3) c
          ON c.day = o.received_day AND c.source = o.source AND c.fulfilment_type = o.fulfilment_type
        WHERE COALESCE(o.received, 0) <> COALESCE(c.received, 0)`),
    ).toBe(0);
    // A listing never holds more than was pushed, and holds what its open lines reserve.
    expect(
      await count(`SELECT count(*) AS n FROM pts_listings l
        WHERE l.qty_reserved + l.qty_sold > l.qty_pushed
           OR l.qty_reserved <> (SELECT COALESCE(sum(qty_reserved), 0) FROM order_lines x
                                 WHERE x.listing_id = l.id)`),
    ).toBe(0);
    // Every generated parcel's label came from a batch that labelled its order.
    expect(
      await count(`SELECT count(*) AS n FROM packages p
        WHERE NOT EXISTS (SELECT 1 FROM label_batch_orders b
          WHERE b.batch_id = p.label_batch_id AND b.order_id = p.order_id
            AND b.package_id = p.id AND b.result = 'created')`),
    ).toBe(0);
    const list = await admin.get('/orders?limit=5');
    expect(list.statusCode, list.body).toBe(200);
  });

  it('ships devices on the orders and brings some back: unpacked, claimed, under RMA, repaired', async () => {
    expect(summary.units).toBeGreaterThan(0);
    expect(summary.unpacks).toBeGreaterThan(0);
    expect(summary.claims).toBeGreaterThan(0);
    expect(summary.rmas).toBeGreaterThan(0);
    // A device is on one unit, of its model, received before its order shipped; while it is out,
    // it is delivered exactly when its parcel was.
    expect(
      await count(`SELECT count(*) AS n FROM order_line_units u
        JOIN order_lines l ON l.id = u.order_line_id JOIN orders o ON o.id = l.order_id
        JOIN packages p ON p.order_id = o.id
        JOIN product_variants v ON v.id = u.variant_id JOIN products pr ON pr.id = v.product_id
        JOIN devices d ON d.id = u.device_id
        WHERE pr.model_id <> d.model_id OR d.received_at >= o.shipped_at
          OR o.status NOT IN ('shipped', 'delivered', 'returned', 'lost', 'reshipped')
          OR (d.status IN ('shipped', 'delivered') AND (d.status = 'delivered') <> (p.status = 'delivered'))
          OR (u.status = 'returned') <> EXISTS (SELECT 1 FROM unpack_items i
            WHERE i.device_id = d.id AND i.found_qty > 0)`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT device_id FROM order_line_units
        WHERE device_id IS NOT NULL GROUP BY device_id HAVING count(*) > 1) twice`),
    ).toBe(0);
    // A device's last step on its timeline is where it is.
    expect(
      await count(deviceStepMismatchSql('order_line_units u JOIN devices d ON d.id = u.device_id')),
    ).toBe(0);
    // Every returned parcel that carried a device was unpacked, and the figures count them.
    expect(
      await count(`SELECT count(*) AS n FROM packages p WHERE p.status = 'returned'
        AND EXISTS (SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
          WHERE l.order_id = p.order_id)
        AND NOT EXISTS (SELECT 1 FROM unpacks k WHERE k.package_id = p.id)`),
    ).toBe(0);
    expect(await count('SELECT sum(returns) AS n FROM unpack_day_counts')).toBe(summary.unpacks);
    // A received RMA's device is back; a paid lost claim's device written off; a device routed
    // to repair has its ticket, naming the RMA or the parcel.
    expect(
      await count(`SELECT count(*) AS n FROM rma_lines l JOIN devices d ON d.id = l.device_id
        WHERE (l.received_at IS NOT NULL) = (d.status IN ('shipped', 'delivered'))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM claims c JOIN packages p ON p.id = c.package_id
        JOIN order_lines l ON l.order_id = p.order_id
        JOIN order_line_units u ON u.order_line_id = l.id JOIN devices d ON d.id = u.device_id
        WHERE (c.status IN ('paid', 'closed')) <> (d.status = 'lost')`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM (
          SELECT l.device_id, r.number AS reference FROM rma_lines l JOIN rmas r ON r.id = l.rma_id
          WHERE l.route = 'repair'
          UNION ALL
          SELECT i.device_id, p.tracking_number FROM unpack_items i
          JOIN unpacks k ON k.id = i.unpack_id JOIN packages p ON p.id = k.package_id
          WHERE i.disposition = 'repair') routed
        WHERE NOT EXISTS (SELECT 1 FROM repair_tickets t
          WHERE t.device_id = routed.device_id AND t.reference = routed.reference)`),
    ).toBe(0);
    // Each RMA's timeline starts with its request and ends in its state.
    expect(await count(timelineMismatchSql('rmas', 'rma_events', 'rma_id'))).toBe(0);
    const rmas = await admin.get('/rmas?limit=5');
    expect(rmas.statusCode, rmas.body).toBe(200);
  });

  it('hands SIMs out to agents over the year: valid ICCIDs, one holder each, counts that add up', async () => {
    expect(summary).toMatchObject({ sims: 2 * DEVICES, simBoxes: 8, agents: 500 });
    const iccids = await t.db.query<{ iccid: string }>('SELECT iccid FROM sim_cards');
    expect(iccids).toHaveLength(2 * DEVICES);
    expect(iccids.filter(({ iccid }) => !parseIccid(iccid).ok)).toEqual([]);
    const statuses = await t.db.query<{ status: string }>(
      'SELECT DISTINCT status FROM sim_cards ORDER BY status',
    );
    expect(statuses.map((row) => row.status)).toEqual(
      expect.arrayContaining(['active', 'assigned', 'in_stock', 'inactive', 'with_agent']),
    );
    // Each box's available count is its SIMs in stock; no agent holds more than the cap.
    expect(
      await count(`SELECT count(*) AS n FROM sim_boxes b WHERE b.qty_available <>
        (SELECT count(*) FROM sim_cards s WHERE s.sim_box_id = b.id AND s.status = 'in_stock')`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM (SELECT s.agent_id FROM sim_cards s
        JOIN users u ON u.id = s.agent_id WHERE s.status IN ('with_agent', 'assigned')
        GROUP BY s.agent_id, u.sim_cap HAVING count(*) > u.sim_cap) over_cap`),
    ).toBe(0);
    // Every SIM's receipt is on its timeline; every SIM an agent received is on the ledger.
    expect(
      await count(`SELECT count(*) AS n FROM sim_cards s WHERE NOT EXISTS
        (SELECT 1 FROM sim_events e WHERE e.sim_id = s.id AND e.type = 'received')`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM sim_cards s
        WHERE s.status IN ('with_agent', 'assigned', 'active') AND NOT EXISTS
        (SELECT 1 FROM agent_sim_ledger l WHERE l.sim_id = s.id AND l.entry = 'received'
           AND l.agent_id = s.agent_id)`),
    ).toBe(0);
    // A SIM active once is destroyed when returned, never restocked (but for the anomalies).
    expect(
      await count(`SELECT count(*) AS n FROM sim_return_lines l JOIN sim_cards s ON s.id = l.sim_id
        WHERE l.disposition = 'restock' AND s.ever_active
          AND NOT EXISTS (SELECT 1 FROM sim_anomalies a WHERE a.sim_id = s.id)`),
    ).toBe(0);
    expect(summary.simRequests).toBeGreaterThan(0);
    expect(summary.simReturns).toBeGreaterThan(0);
    expect(summary.detectionRuns).toBeGreaterThan(0);
  });

  it('refuses a database that has devices already', async () => {
    await expect(generateDatabase(t.db, { devices: 10 })).rejects.toThrow(/generate into a new/);
  });
});
