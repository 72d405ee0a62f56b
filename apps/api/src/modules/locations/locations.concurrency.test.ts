import type { BulkCreateResult, Location } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * Two warehouse managers creating overlapping ranges at the same moment. On PostgreSQL
 * (TEST_DATABASE_URL) the two run on concurrent connections; on PGlite one after the other, and
 * the rules hold there too.
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
