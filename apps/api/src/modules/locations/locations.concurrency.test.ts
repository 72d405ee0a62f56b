import type { BulkCreateResult, Location } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import { seedCatalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * Two warehouse managers creating overlapping ranges at the same moment; a manager deactivating
 * a zone while a box or units are put in a bin of it. On PostgreSQL (TEST_DATABASE_URL) the two
 * run on concurrent connections; on PGlite one after the other, and the rules hold there too.
 */

let t: TestApp;
let managers: ApiClient[];

beforeAll(async () => {
  t = await createTestApp();
  managers = [];
  for (const name of ['wm-left', 'wm-right']) {
    await createUser(t.db, {
      userName: name,
      password: `${name}-password-1`,
      roles: ['Warehouse Manager'],
    });
    managers.push(apiClient(t, await login(t.app, name, `${name}-password-1`)));
  }
});
afterAll(() => t.close());

const range = async (manager: ApiClient, parent: number, from: string, to: string) => {
  const response = await manager.post('/locations/ranges', {
    parent_id: parent,
    levels: [
      { kind: 'aisle', from, to },
      { kind: 'rack', from: '01', to: '03' },
    ],
  });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<BulkCreateResult>(response).data;
};

describe('two overlapping ranges created at the same moment', () => {
  it('create each code once; the later one is told which codes exist', async () => {
    for (const zoneCode of ['P', 'R', 'S', 'T', 'U']) {
      const zone = bodyOf<Location>(
        await managers[0]!.post('/locations', { kind: 'zone', segment: zoneCode }),
      ).data;
      // Aisles 01..04 and 03..06, three racks each: aisles 03, 04 and their racks overlap.
      const answers = await Promise.all([
        range(managers[0]!, zone.id, '01', '04'),
        range(managers[1]!, zone.id, '03', '06'),
      ]);
      const codes = await t.db.query<{ code: string; n: number }>(
        `SELECT code, count(*)::int AS n FROM locations WHERE zone_id = $1 AND kind <> 'zone'
         GROUP BY code ORDER BY code`,
        [zone.id],
      );
      expect(codes).toHaveLength(6 * 4);
      expect(codes.every((row) => row.n === 1)).toBe(true);
      expect(answers[0]!.created + answers[1]!.created).toBe(24);
      const overlap = ['03', '04'].flatMap((aisle) => [
        `${zoneCode}-${aisle}`,
        ...['01', '02', '03'].map((rack) => `${zoneCode}-${aisle}-${rack}`),
      ]);
      // Whoever came second found the overlap made by the other, and said so.
      const told = [...answers[0]!.existing_codes, ...answers[1]!.existing_codes].sort();
      expect(told).toEqual(overlap.sort());
      expect(answers[0]!.existing + answers[1]!.existing).toBe(8);
    }
  });
});

/** A zone, an aisle and an active bin "<zone>-01-01" under it, with room for boxes. */
async function activeZone(zoneCode: string): Promise<number> {
  const zone = bodyOf<Location>(
    await managers[0]!.post('/locations', { kind: 'zone', segment: zoneCode }),
  ).data;
  await range(managers[0]!, zone.id, '01', '01');
  await managers[0]!.post('/locations/activation', { ids: [zone.id], active: true });
  await t.db.query(`UPDATE locations SET capacity_boxes = 10 WHERE code = $1`, [
    `${zoneCode}-01-01`,
  ]);
  return zone.id;
}

/** Nothing is held in an inactive location, nor below one. */
const heldInactive = async () => {
  const [row] = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT location_id FROM inventory_boxes WHERE location_id IS NOT NULL
       UNION ALL SELECT location_id FROM stock_levels WHERE on_hand > 0
     ) held
     JOIN locations bin ON bin.id = held.location_id
     JOIN locations zone ON zone.id = bin.zone_id
     WHERE NOT bin.active OR NOT zone.active`,
  );
  return row!.n;
};

describe('a zone deactivated while something is put in a bin of it', () => {
  it('either stays active and holds it, or is inactive and was given nothing', async () => {
    const { models } = await seedCatalogue(t);
    const [item] = await t.db.query<{ id: number }>(
      `INSERT INTO accessories (sku, name, kind) VALUES ('RACE-1', 'Race cable', 'cable')
       RETURNING id::int AS id`,
    );
    const outcomes: string[] = [];
    for (const [n, zoneCode] of ['V', 'W', 'X', 'Y', 'Z', 'K', 'L', 'M'].entries()) {
      const zone = await activeZone(zoneCode);
      const bin = `${zoneCode}-01-01`;
      const [box] = await t.db.query<{ code: string }>(
        `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, sealed_at)
         VALUES ($1, 'A', 10, 1, 'sealed', now()) RETURNING code`,
        [models.a15],
      );
      // Every other round a box is put away, else units are received: both write a bin.
      const putting =
        n % 2 === 0
          ? managers[1]!.post('/putaway', { box_code: box!.code, location_code: bin })
          : managers[1]!.post('/accessory-stock/receipts', {
              accessory_id: item!.id,
              location_id: (
                await t.db.query<{ id: number }>(
                  'SELECT id::int AS id FROM locations WHERE code = $1',
                  [bin],
                )
              )[0]!.id,
              qty: 5,
              reference: `PO-${zoneCode}`,
            });
      const [deactivated, put] = await Promise.all([
        managers[0]!.post('/locations/activation', { ids: [zone], active: false }),
        putting,
      ]);
      const won = [deactivated.statusCode, put.statusCode].map((status) => status < 300);
      // Exactly one wins; the other is told why: the zone holds stock (409), the bin is not
      // active (putaway's 409, a receipt's 422), or, caught between, try again (409).
      const statuses = [deactivated.statusCode, put.statusCode];
      expect(won.filter(Boolean), `${deactivated.body} / ${put.body}`).toHaveLength(1);
      expect([409, 422]).toContain(statuses.find((status) => status >= 300));
      const [zoneRow] = await t.db.query<{ active: boolean; holds: number }>(
        'SELECT active, location_holds(id) AS holds FROM locations WHERE id = $1',
        [zone],
      );
      expect(zoneRow).toEqual(won[0] ? { active: false, holds: 0 } : { active: true, holds: 1 });
      expect(await heldInactive()).toBe(0);
      outcomes.push(won[0] ? 'deactivated' : 'put');
    }
    // The figures the list shows agree with what is held.
    const [wrong] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM locations l
       WHERE location_holds(l.id) <> (
         SELECT count(*) FROM (
           SELECT location_id FROM inventory_boxes WHERE location_id IS NOT NULL
           UNION ALL SELECT location_id FROM stock_levels WHERE on_hand > 0
         ) held WHERE held.location_id IN (SELECT location_subtree(l.id)))`,
    );
    expect(wrong!.n).toBe(0);
    expect(outcomes).toHaveLength(8);
  });
});
