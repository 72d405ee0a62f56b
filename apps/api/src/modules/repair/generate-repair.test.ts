import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp } from '../../test/api-client.js';
import { devicesIn, seedRepair, type RepairPlaces } from '../../test/repair-fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { generateRepair } from './index.js';

let t: TestApp;
let places: RepairPlaces;

beforeAll(async () => {
  let admin;
  ({ t, admin } = await createAdminTestApp());
  places = await seedRepair(t, admin);
});
afterAll(() => t.close());

describe('generateRepair', () => {
  it('raises tickets for a share of failed and returned devices, their devices moved along', async () => {
    await devicesIn(t.db, places, 30);
    await devicesIn(t.db, places, 10, 'returned');
    const made = await generateRepair(t.db, { anchor: new Date() });
    expect(made.tickets).toBeGreaterThan(20);
    expect(made.tickets).toBeLessThan(40);
    const mismatched = await t.db.query(
      `SELECT t.id FROM repair_tickets t JOIN devices d ON d.id = t.device_id
       WHERE (t.status = 'released') <> (d.status = 'repaired')
          OR (t.status = 'beyond_repair') <> (d.status IN ('scrapped', 'parts'))
          OR (t.status NOT IN ('released', 'beyond_repair')) <> (d.status = 'in_repair')`,
    );
    expect(mismatched).toEqual([]);
    expect((await generateRepair(t.db, { anchor: new Date() })).tickets).toBe(0);
  });
});
