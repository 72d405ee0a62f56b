import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { shippedLifelineParcels } from './unpack.test-support.js';

/**
 * Two unpack stations at once. On PostgreSQL (TEST_DATABASE_URL) the requests meet on concurrent
 * connections: the package row is locked first (the unique package on `unpacks` behind it), the
 * devices found next, so one parcel is unpacked once and one IMEI received back once.
 */

let t: TestApp;
let clerk: ApiClient;
let stations: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
  stations = [
    await signedInClient(t, 'returns-a', ['Warehouse Sorting']),
    await signedInClient(t, 'returns-b', ['Warehouse Sorting']),
  ];
});
afterAll(() => t.close());

const count = async (sql: string, params: unknown[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;

describe('two stations at once', () => {
  it('unpack one parcel once', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, true);
    const answers = await Promise.all(
      stations.map((station, n) =>
        station.post(`/unpack/parcels/${parcel!.packageId}/unpacks`, {
          station: `Returns ${n}`,
          devices: [{ imei: parcel!.imeis[0], disposition: 'reuse' }],
          iccids: parcel!.iccids,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await count('unpacks WHERE package_id = $1', [parcel!.packageId])).toBe(1);
    expect(
      await count("device_events WHERE device_id = $1 AND type = 'returned'", [
        parcel!.deviceIds[0],
      ]),
    ).toBe(1);
    expect(
      await count(
        "sim_events e JOIN sim_cards c ON c.id = e.sim_id WHERE c.iccid = $1 AND e.type = 'returned_in_parcel'",
        [parcel!.iccids[0]],
      ),
    ).toBe(1);
  });

  it('receive one IMEI scanned into two parcels once', async () => {
    const [first, second] = await shippedLifelineParcels(t, clerk, 2, true);
    const imei = first!.imeis[0];
    const answers = await Promise.all(
      [first!, second!].map((parcel, n) =>
        stations[n]!.post(`/unpack/parcels/${parcel.packageId}/unpacks`, {
          devices: [{ imei, disposition: 'reuse' }],
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect((refused.json() as { message: string }).message).toMatch(/returned, not out/);
    expect(
      await count("device_events WHERE device_id = $1 AND type = 'returned'", [
        first!.deviceIds[0],
      ]),
    ).toBe(1);
  });
});
