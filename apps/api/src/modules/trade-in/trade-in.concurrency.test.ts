import type { TradeInDetail } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { imeiOf, seedCatalogue, TACS } from '../../test/receiving-fixtures.js';
import { createRole, createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Two returns stations at once. On PostgreSQL (TEST_DATABASE_URL) the requests meet on
 * concurrent connections: the trade-in's row lock lets one station receive it and tells the other
 * it is received already; one phone scanned into two trade-ins lands in one (the open-IMEI index).
 */

let t: TestApp;
let stations: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogue(t);
  await createRole(t.db, 'Trade-in race desk', ['trade-in.process']);
  stations = [
    await signedInClient(t, 'trade-race-a', ['Trade-in race desk']),
    await signedInClient(t, 'trade-race-b', ['Trade-in race desk']),
  ];
});
afterAll(() => t.close());

const expectTradeIn = async () =>
  (
    await dataOf<TradeInDetail>(
      stations[0].post('/trade-ins', {
        customer_name: 'Race Customer',
        line1: '1 Main St',
        city: 'Dallas',
        state: 'TX',
        zip: '75201',
        declared_model: 'Galaxy A15',
        quoted_cents: 5000,
      }),
      201,
    )
  ).trade_in.id;

describe('two stations receiving', () => {
  it('one trade-in: one receives it, the other is refused', async () => {
    const id = await expectTradeIn();
    const imei = imeiOf(TACS.a15, 810_001);
    const answers = await Promise.all(
      stations.map((station) => station.post(`/trade-ins/${id}/receive`, { imei })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const events = await t.db.query(
      "SELECT 1 FROM trade_in_events WHERE trade_in_id = $1 AND type = 'received'",
      [id],
    );
    expect(events).toHaveLength(1);
  });

  it('one phone into two trade-ins: it lands in one', async () => {
    const ids = [await expectTradeIn(), await expectTradeIn()];
    const imei = imeiOf(TACS.a15, 810_002);
    const answers = await Promise.all(
      ids.map((id, n) => stations[n]!.post(`/trade-ins/${id}/receive`, { imei })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const held = await t.db.query('SELECT 1 FROM trade_ins WHERE imei = $1', [imei]);
    expect(held).toHaveLength(1);
  });
});
