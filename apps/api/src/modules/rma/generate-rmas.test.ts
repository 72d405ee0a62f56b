import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateSummary } from '../../db/generate.js';
import { createGeneratedTestApp, timelineMismatchSql } from '../../test/generated-database.js';
import type { TestApp } from '../../test/test-app.js';

/** The RMAs of a generated database resolved by replacement, and their replacement orders. */

let t: TestApp;
let summary: GenerateSummary;
let count: (sql: string) => Promise<number>;

beforeAll(async () => {
  ({ t, summary, count } = await createGeneratedTestApp());
}, 120_000);
afterAll(() => t.close());

describe('generated RMAs resolved by replacement', () => {
  it('each have the replacement order the resolution makes', async () => {
    expect(summary.rmas).toBeGreaterThan(0);
    const replaced = await count("SELECT count(*) AS n FROM rmas WHERE resolution = 'replacement'");
    expect(replaced).toBeGreaterThan(0);
    // The order: a child of the RMA's, of type replacement, at no charge, for the variant of the
    // unit coming back, made at the resolution; the RMA sent or closed, its timeline naming it.
    expect(
      await count(`SELECT count(*) AS n FROM rmas r
        LEFT JOIN orders n ON n.id = r.replacement_order_id
        WHERE (r.resolution = 'replacement') <> (n.id IS NOT NULL)
          OR (n.id IS NOT NULL AND (n.source <> 'replacement'
            OR n.fulfilment_type <> 'replacement' OR n.parent_order_id <> r.order_id
            OR n.total_cents <> 0 OR n.notes <> 'Replacement for ' || r.number
            OR r.status NOT IN ('replacement_sent', 'closed')
            OR n.created_at <> (SELECT e.at FROM rma_events e WHERE e.rma_id = r.id
              AND e.type = 'replacement_ordered' AND e.to_status = 'replacement_sent'
              AND e.data ->> 'replacement_order' = n.number)
            OR (SELECT string_agg(ol.variant_id || '×' || ol.qty, ',') FROM order_lines ol
                WHERE ol.order_id = n.id AND ol.listing_id IS NULL)
              <> (SELECT string_agg(u.variant_id || '×1', ',') FROM rma_lines l
                JOIN order_line_units u ON u.id = l.order_line_unit_id WHERE l.rma_id = r.id)))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM orders o WHERE o.source = 'replacement'
        AND NOT EXISTS (SELECT 1 FROM rmas r WHERE r.replacement_order_id = o.id)`),
    ).toBe(0);
    // Labelled or on its way, it has its parcel; the day counts count it.
    expect(
      await count(`SELECT count(*) AS n FROM orders o LEFT JOIN packages p ON p.order_id = o.id
        WHERE o.source = 'replacement' AND o.status IN ('labeled', 'shipped', 'delivered')
          AND (p.id IS NULL OR (o.status = 'delivered') <> (p.status = 'delivered'))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM order_day_counts c
        WHERE c.source = 'replacement' AND c.received > 0`),
    ).toBeGreaterThan(0);
    // Each RMA's timeline starts with its request and ends in its state.
    expect(await count(timelineMismatchSql('rmas', 'rma_events', 'rma_id'))).toBe(0);
  });
});
