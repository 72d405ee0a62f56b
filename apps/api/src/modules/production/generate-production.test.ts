import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp } from '../../test/api-client.js';
import {
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { generateProduction } from './index.js';

let t: TestApp;
let places: ProductionPlaces;

beforeAll(async () => {
  ({ t } = await createAdminTestApp());
  places = await seedProduction(t);
});
afterAll(() => t.close());

describe('generateProduction', () => {
  it('takes boxes of received devices into requests, with tests, grades and failures', async () => {
    for (let box = 0; box < 3; box++) await stagedBox(t.db, places, 8);
    const made = await generateProduction(t.db, { requests: 2 });
    expect(made.requests).toBe(2);
    expect(made.graded + made.failed).toBeGreaterThan(0);
    const [counts] = await t.db.query<{ tests: number; graded: number; links: number }>(
      `SELECT (SELECT count(*)::int FROM device_tests) AS tests,
         (SELECT count(*)::int FROM devices WHERE status = 'graded' AND wipe_certificate IS NOT NULL) AS graded,
         (SELECT count(*)::int FROM product_request_boxes WHERE active) AS links`,
    );
    expect(counts).toEqual({ tests: made.graded + made.failed, graded: made.graded, links: 2 });
    await expect(generateProduction(t.db, { requests: -1 })).rejects.toThrow(RangeError);
  });
});
