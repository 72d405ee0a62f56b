import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateSummary } from '../../db/generate.js';
import type { ApiClient } from '../../test/api-client.js';
import { createGeneratedTestApp, deviceStepMismatchSql } from '../../test/generated-database.js';
import type { TestApp } from '../../test/test-app.js';

/** The trade-ins of a generated database: rows whose invariants hold. */

let t: TestApp;
let admin: ApiClient;
let summary: GenerateSummary;
let count: (sql: string) => Promise<number>;

beforeAll(async () => {
  ({ t, admin, summary, count } = await createGeneratedTestApp());
}, 120_000);
afterAll(() => t.close());

describe('generated trade-ins', () => {
  it('come with about one order in a hundred, over the lifecycle', async () => {
    const orders = await count('SELECT count(*) AS n FROM orders');
    expect(summary.tradeIns).toBe(await count('SELECT count(*) AS n FROM trade_ins'));
    expect(summary.tradeIns).toBeGreaterThan(orders * 0.002);
    expect(summary.tradeIns).toBeLessThan(orders * 0.02);
    const statuses = await t.db.query<{ status: string }>(
      'SELECT DISTINCT status FROM trade_ins ORDER BY status',
    );
    expect(statuses.map((row) => row.status)).toEqual(
      expect.arrayContaining(['accepted', 'returned', 'rejected']),
    );
    // Each timeline starts with the quote and ends in the trade-in's status, in time order.
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r WHERE
        (SELECT type FROM trade_in_events e WHERE e.trade_in_id = r.id ORDER BY e.id LIMIT 1)
          <> 'expected'
        OR r.status <> (SELECT to_status FROM trade_in_events e WHERE e.trade_in_id = r.id
          ORDER BY e.id DESC LIMIT 1)
        OR EXISTS (SELECT 1 FROM trade_in_events a JOIN trade_in_events b
          ON b.trade_in_id = a.trade_in_id AND b.id > a.id AND b.at < a.at
          WHERE a.trade_in_id = r.id)`),
    ).toBe(0);
  });

  it('keep their steps consistent: receipt, inspection, offer, credit and device', async () => {
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r
        LEFT JOIN tac_numbers tn ON tn.tac = left(r.imei, 8)
        LEFT JOIN devices d ON d.id = r.device_id
        WHERE (r.status = 'expected') <> (r.received_at IS NULL)
          OR (r.imei IS NOT NULL AND tn.model_id IS DISTINCT FROM r.model_id)
          OR (r.status IN ('inspected', 'revalued', 'accepted', 'declined', 'returned')
            OR (r.status = 'rejected' AND NOT EXISTS (SELECT 1 FROM trade_in_events e
              WHERE e.trade_in_id = r.id AND e.data ->> 'reason' = 'blacklisted')))
            <> (r.inspected_at IS NOT NULL)
          OR (r.status = 'rejected' AND r.activation_lock_off)
          OR (r.offer_expires_at IS NOT NULL AND r.offer_expires_at <= r.inspected_at)
          OR (r.status = 'accepted') <> (d.id IS NOT NULL)
          OR (d.id IS NOT NULL AND (d.imei <> r.imei OR d.model_id <> r.model_id
            OR d.status NOT IN ('returned', 'reuse') OR d.invoice_id IS NOT NULL
            OR r.credit_cents <> COALESCE(r.offer_cents, r.quoted_cents)))
          OR (r.status = 'returned') <> (r.return_tracking_number IS NOT NULL)`),
    ).toBe(0);
    // A phone traded in is no device we bought; its device's last step is where it is.
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r JOIN devices d ON d.imei = r.imei
        WHERE d.invoice_id IS NOT NULL`),
    ).toBe(0);
    expect(
      await count(deviceStepMismatchSql('trade_ins r JOIN devices d ON d.id = r.device_id')),
    ).toBe(0);
    // A phone on the blacklist is rejected at its receipt as the desk does: scanned, never
    // inspected, no device of ours; its open entry flagged before, its reason on the timeline.
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r
        JOIN trade_in_events e ON e.trade_in_id = r.id AND e.data ->> 'reason' = 'blacklisted'`),
    ).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r
        JOIN trade_in_events e ON e.trade_in_id = r.id AND e.data ->> 'reason' = 'blacklisted'
        LEFT JOIN blacklist_entries b ON b.imei = r.imei AND b.cleared_at IS NULL
        WHERE r.status <> 'rejected' OR e.from_status <> 'expected' OR e.at <> r.received_at
          OR r.inspected_at IS NOT NULL OR r.device_id IS NOT NULL
          OR EXISTS (SELECT 1 FROM devices d WHERE d.imei = r.imei)
          OR b.id IS NULL OR b.flagged_at >= r.received_at
          OR e.data ->> 'blacklist_reason' <> b.reason`),
    ).toBe(0);
    // And only a blacklisted phone's IMEI is on the blacklist.
    expect(
      await count(`SELECT count(*) AS n FROM trade_ins r
        JOIN blacklist_entries b ON b.imei = r.imei
        WHERE r.status NOT IN ('expected', 'rejected') OR r.activation_lock_off = false`),
    ).toBe(0);
    const board = await admin.get('/trade-ins');
    expect(board.statusCode, board.body).toBe(200);
  });
});
