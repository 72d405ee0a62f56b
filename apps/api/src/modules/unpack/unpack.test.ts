import type {
  ReturnedParcel,
  ReturnedSim,
  UnidentifiedParcel,
  UnpackStatistics,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { shippedLifelineParcels } from './unpack.test-support.js';
import { businessDay } from '../../test/business-day.js';

let t: TestApp;
let clerk: ApiClient;
let sorter: ApiClient;
let coordinator: ApiClient;
let manager: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
  sorter = await signedInClient(t, 'sorter', ['Warehouse Sorting']);
  coordinator = await signedInClient(t, 'coordinator', ['SIM Coordinator']);
  manager = await signedInClient(t, 'boss', ['admin']);
});
afterAll(() => t.close());

const statusOf = async (table: string, id: number) =>
  (
    await t.db.query<{ status: string; hold_reason?: string }>(
      `SELECT * FROM ${table} WHERE id = $1`,
      [id],
    )
  )[0]!;

describe('unpacking a returned parcel', () => {
  it('shows what the parcel should hold and records what was found, in one go', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, true);
    const found = await dataOf<ReturnedParcel>(
      sorter.get(`/unpack/parcels?code=${parcel!.tracking}`),
    );
    expect(found).toMatchObject({
      status: 'return_to_sender',
      reason: 'undeliverable',
      order_number: parcel!.number,
      unpack: null,
    });
    expect(found.devices.map((device) => device.imei)).toEqual(parcel!.imeis);
    expect(found.sims.map((sim) => sim.iccid)).toEqual(parcel!.iccids);

    const answer = await dataOf<ReturnedParcel>(
      sorter.post(`/unpack/parcels/${parcel!.packageId}/unpacks`, {
        station: 'Returns 1',
        devices: [{ imei: parcel!.imeis[0], disposition: 'reuse' }],
        iccids: parcel!.iccids,
      }),
      201,
    );
    expect(answer.status).toBe('returned');
    expect(answer.order_status).toBe('returned');
    expect(answer.unpack).toMatchObject({ outcome: 'match', station: 'Returns 1' });
    expect((await statusOf('devices', parcel!.deviceIds[0]!)).status).toBe('returned');
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [parcel!.iccids[0]],
    );
    expect(sim!.status).toBe('returned');

    // The second station finds it unpacked.
    const again = await refusalOf(
      sorter.post(`/unpack/parcels/${parcel!.packageId}/unpacks`, { devices: [], iccids: [] }),
      409,
    );
    expect(again).toMatch(/unpacked already at Returns 1/);

    // The SIM waits on /RMA/sim, and the statistics count the return.
    const sims = await dataOf<ReturnedSim[]>(coordinator.get('/rma/sims'));
    expect(sims.find((row) => row.iccid === parcel!.iccids[0])).toMatchObject({
      source: 'parcel',
      reference: parcel!.tracking,
      order_number: parcel!.number,
    });
    const stats = await dataOf<UnpackStatistics>(
      manager.get(
        `/unpack/statistics?from=${await businessDay(t.db)}&to=${await businessDay(t.db)}`,
      ),
    );
    expect(stats.totals.returns).toBeGreaterThanOrEqual(1);
    expect(stats.by_reason.find((row) => row.reason === 'undeliverable')!.returns).toBeGreaterThan(
      0,
    );
  });

  it('records a mismatch, holds a listed device and quarantines as chosen', async () => {
    const [listed, other] = await shippedLifelineParcels(t, clerk, 2, false);
    await t.db.query(
      "INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'carrier', 'stolen')",
      [listed!.imeis[0]],
    );
    // No tracking news: the parcel came back on its own; the other's device is in it too.
    const answer = await dataOf<ReturnedParcel>(
      sorter.post(`/unpack/parcels/${listed!.packageId}/unpacks`, {
        devices: [
          { imei: listed!.imeis[0], disposition: 'reuse' },
          { imei: other!.imeis[0], disposition: 'hold' },
        ],
        iccids: [],
        accessories: [{ sku: 'CHG-USB-C', qty: 1 }],
      }),
      201,
    );
    expect(answer.reason).toBe('no_tracking');
    expect(answer.unpack!.outcome).toBe('mismatch');
    expect(await statusOf('devices', listed!.deviceIds[0]!)).toMatchObject({
      status: 'hold',
      hold_reason: 'blacklist',
    });
    expect(await statusOf('devices', other!.deviceIds[0]!)).toMatchObject({
      status: 'hold',
      hold_reason: 'quarantine',
    });
    const items = answer.unpack!.items;
    expect(items.find((item) => item.code === listed!.iccids[0])).toMatchObject({
      expected_qty: 1,
      found_qty: 0,
    });
    expect(items.find((item) => item.code === 'CHG-USB-C')).toMatchObject({
      expected_qty: 0,
      found_qty: 1,
    });
  });

  it('refuses a parcel that never left and an unknown code, and keeps unidentified parcels', async () => {
    expect(await refusalOf(sorter.get('/unpack/parcels?code=9400NOSUCHPARCEL00000'), 404)).toMatch(
      /unidentified/,
    );
    const added = await dataOf<UnidentifiedParcel>(
      sorter.post('/unpack/unidentified', {
        code: '9400 1111 2222',
        location: 'ret-01',
        contents: 'One phone, no paperwork',
        station: 'Returns 1',
      }),
      201,
    );
    expect(added).toMatchObject({ code: '940011112222', location: 'RET-01' });
    const byCode = await dataOf<UnidentifiedParcel[]>(
      sorter.get('/unpack/unidentified?q=94001111'),
    );
    expect(byCode.map((row) => row.id)).toEqual([added.id]);
    const byWords = await dataOf<UnidentifiedParcel[]>(
      sorter.get('/unpack/unidentified?q=paperwork'),
    );
    expect(byWords.map((row) => row.id)).toEqual([added.id]);
    const problem = await sorter.post('/unpack/unidentified', { code: '', location: '' });
    expect(problem.statusCode).toBe(422);
  });

  it('restocks a never-active SIM, destroys one ever active, and exports lines to deactivate', async () => {
    const parcels = await shippedLifelineParcels(t, clerk, 2, true);
    for (const parcel of parcels) {
      await dataOf(
        sorter.post(`/unpack/parcels/${parcel.packageId}/unpacks`, {
          devices: [{ imei: parcel.imeis[0], disposition: 'reuse' }],
          iccids: parcel.iccids,
        }),
        201,
      );
    }
    const [fresh, active] = parcels;
    await t.db.query(
      "UPDATE sim_cards SET ever_active = true, last_detect_state = 'active' WHERE iccid = $1",
      [active!.iccids[0]],
    );
    const sims = await dataOf<ReturnedSim[]>(coordinator.get('/rma/sims'));
    const idOf = (iccid: string) => sims.find((sim) => sim.iccid === iccid)!.id;
    expect(
      await refusalOf(
        coordinator.post('/rma/sims/decisions', {
          action: 'restock',
          sim_ids: [idOf(active!.iccids[0]!)],
        }),
        409,
      ),
    ).toMatch(/never restocked/);
    const file = await coordinator.download('/rma/sims/deactivations', {});
    expect(file.body).toContain(active!.iccids[0]);
    expect(file.body).not.toContain(fresh!.iccids[0]);
    await dataOf(
      coordinator.post('/rma/sims/decisions', {
        action: 'restock',
        sim_ids: [idOf(fresh!.iccids[0]!)],
      }),
    );
    await dataOf(
      coordinator.post('/rma/sims/decisions', {
        action: 'destroy',
        sim_ids: [idOf(active!.iccids[0]!)],
      }),
    );
    const after = await t.db.query<{ iccid: string; status: string }>(
      'SELECT iccid, status FROM sim_cards WHERE iccid = ANY ($1::text[]) ORDER BY iccid',
      [[fresh!.iccids[0], active!.iccids[0]]],
    );
    expect(Object.fromEntries(after.map((row) => [row.iccid, row.status]))).toEqual({
      [fresh!.iccids[0]!]: 'in_stock',
      [active!.iccids[0]!]: 'destroyed',
    });
  });

  it('exports a statistics table and refuses a backwards range', async () => {
    const file = await manager.download('/unpack/statistics/exports', {
      from: await businessDay(t.db),
      to: await businessDay(t.db),
      table: 'by_reason',
    });
    expect(file.body.split('\n')[0]).toContain('Reason,Returns,Mismatches,Empty');
    const problem = await manager.get('/unpack/statistics?from=2026-02-02&to=2026-01-01');
    expect(problem.statusCode).toBe(422);
  });
});
