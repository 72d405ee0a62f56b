import type { RmaDetail, RmaScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { shippedLifelineParcels } from '../../test/returned-parcel-fixtures.js';

/**
 * Two desks at once. On PostgreSQL (TEST_DATABASE_URL) the requests meet on concurrent
 * connections: RMAs opened at once for one device lock it in turn, so one is opened and the
 * others are refused naming it; two stations scanning the same device into its RMA lock the RMA
 * in turn, so one receives it and the other finds it received; two supervisors clearing one
 * mismatch lock the RMA in turn, so one clears it and the other is refused.
 */

let t: TestApp;
let clerk: ApiClient;
let desks: ApiClient[];
let stations: [ApiClient, ApiClient];
let supervisors: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'rmac-clerk', ['Shipping Clerk']);
  desks = [
    await signedInClient(t, 'rmac-cs-a', ['Customer Support']),
    await signedInClient(t, 'rmac-cs-b', ['Customer Support']),
    await signedInClient(t, 'rmac-cs-c', ['Customer Support']),
  ];
  stations = [
    await signedInClient(t, 'rmac-ws-a', ['Warehouse Sorting']),
    await signedInClient(t, 'rmac-ws-b', ['Warehouse Sorting']),
  ];
  supervisors = [
    await signedInClient(t, 'rmac-rl-a', ['Repair Leader']),
    await signedInClient(t, 'rmac-rl-b', ['Repair Leader']),
  ];
});
afterAll(() => t.close());

describe('RMAs at once', () => {
  it('open one RMA per device, whichever desk is first', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    const answers = await Promise.all(
      desks.map((desk) =>
        desk.post('/rmas', { order_number: parcel!.number, reason: 'defective' }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    const opened = answers.find((answer) => answer.statusCode === 201)!.json() as {
      data: RmaDetail;
    };
    for (const refused of answers.filter((answer) => answer.statusCode === 409)) {
      expect((refused.json() as { message: string }).message).toContain(opened.data.rma.number);
    }
    const [open] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rma_lines WHERE device_id = $1 AND open`,
      [parcel!.deviceIds[0]],
    );
    expect(open!.n).toBe(1);
  });

  it('receive a device once when two stations scan it', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    const opened = await dataOf<RmaDetail>(
      desks[0]!.post('/rmas', { imei: parcel!.imeis[0], reason: 'defective' }),
      201,
    );
    await dataOf(desks[0]!.post(`/rmas/${opened.rma.id}/authorize`, {}));
    const answers = await Promise.all(
      stations.map((station, n) =>
        dataOf<RmaScanAnswer>(
          station.post(`/rmas/${opened.rma.id}/scans`, {
            code: parcel!.imeis[0],
            station: `RMA ${n + 1}`,
          }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.result).sort()).toEqual(['already_received', 'received']);
    const [events] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM device_events WHERE device_id = $1 AND type = 'returned'`,
      [parcel!.deviceIds[0]],
    );
    expect(events!.n).toBe(1);
  });

  it('clear a mismatch once when two supervisors clear it', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    const opened = await dataOf<RmaDetail>(
      desks[0]!.post('/rmas', { imei: parcel!.imeis[0], reason: 'defective' }),
      201,
    );
    await dataOf(desks[0]!.post(`/rmas/${opened.rma.id}/authorize`, {}));
    const flagged = await dataOf<RmaScanAnswer>(
      stations[0].post(`/rmas/${opened.rma.id}/scans`, { code: '990000862471854' }),
    );
    expect(flagged.result).toBe('mismatch');
    const answers = await Promise.all(
      supervisors.map((supervisor, n) =>
        supervisor.post(`/rmas/${opened.rma.id}/mismatch-clearance`, {
          note: `Another phone, set aside (${n + 1})`,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const [cleared] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rma_events WHERE rma_id = $1 AND type = 'mismatch_cleared'`,
      [opened.rma.id],
    );
    expect(cleared!.n).toBe(1);
  });
});
