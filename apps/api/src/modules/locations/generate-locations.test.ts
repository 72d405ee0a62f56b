import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { generateLocations } from './generate-locations.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the generated warehouse', () => {
  it('is a tree of active zones, aisles, racks, levels and bins, some audits due', async () => {
    const summary = await generateLocations(t.db, {
      storageZones: 2,
      aisles: 2,
      racks: 2,
      levels: 2,
      bins: 2,
      anchor: new Date('2026-11-01'),
    });
    // Quarantine 1 + 2 + 8 + 24, receiving 1 + 20, storage 2 x (1 + 2 + 4 + 8 + 16).
    expect(summary).toMatchObject({ locations: 35 + 21 + 62, bins: 20 + 32 });
    const [tree] = await t.db.query<{ inactive: number; quarantined: number; audited: number }>(
      `SELECT count(*) FILTER (WHERE NOT l.active)::int AS inactive,
         count(*) FILTER (WHERE l.quarantine)::int AS quarantined,
         count(*) FILTER (WHERE l.last_audit_at IS NOT NULL)::int AS audited
       FROM locations l JOIN locations z ON z.id = l.zone_id
       WHERE z.code IN ('QRT', 'RCV', 'A', 'B')`,
    );
    expect(tree).toMatchObject({ inactive: 0, quarantined: 35 });
    expect(tree!.audited).toBeGreaterThan(0);
    await expect(generateLocations(t.db)).rejects.toThrow('These zones exist already');
  });
});
