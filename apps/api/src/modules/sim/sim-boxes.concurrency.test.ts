import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';
import { attIccids, carrier, countOf, signedIn } from './sim-stock.test-support.js';

/**
 * Two coordinators receiving overlapping ranges at once: the unique ICCID decides, so exactly
 * one box is received and the other coordinator is told which SIMs another box took. On
 * PostgreSQL (TEST_DATABASE_URL) the receipts run on concurrent connections; on PGlite one at a
 * time, where the second meets the duplicate check instead.
 */

let t: TestApp;
let first: ApiClient;
let second: ApiClient;
let carrierId: number;

beforeAll(async () => {
  t = await createTestApp();
  carrierId = await carrier(t, 'AirTalk Wireless');
  first = await signedIn(t, 'sc1', ['SIM Coordinator']);
  second = await signedIn(t, 'sc2', ['SIM Coordinator']);
});
afterAll(() => t.close());

describe('two receipts of overlapping ranges at once', () => {
  it('receive one box; the other is refused and writes nothing', async () => {
    for (let round = 0; round < 3; round += 1) {
      const start = 890141040000000000n + BigInt(round) * 10_000n;
      const left = attIccids(start, 1000);
      const right = attIccids(start + 500n, 1000);
      const answers = await Promise.all(
        [
          [first, left],
          [second, right],
        ].map(([as, iccids]) =>
          (as as ApiClient).post('/sim-boxes', {
            client_carrier_id: carrierId,
            qty: 1000,
            iccid_first: (iccids as string[])[0],
            iccid_last: (iccids as string[])[999],
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0]).toBe(201);
      expect([409, 422]).toContain(statuses[1]);
      const refused = answers.find((answer) => answer.statusCode !== 201)!;
      expect(JSON.stringify(bodyOf(refused).message)).toMatch(/received (already|a moment ago)/);
      expect(
        await countOf(t, `SELECT count(*)::int AS n FROM sim_cards WHERE iccid BETWEEN $1 AND $2`, [
          left[0],
          right[999],
        ]),
      ).toBe(1000);
    }
    expect(await countOf(t, 'SELECT count(*)::int AS n FROM sim_boxes')).toBe(3);
    expect(
      await countOf(t, "SELECT count(*)::int AS n FROM sim_events WHERE type = 'received'"),
    ).toBe(3000);
  });
});
