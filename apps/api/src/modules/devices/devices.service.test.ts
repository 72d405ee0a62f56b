import {
  DEVICE_ACTIONS,
  nextDeviceStatus,
  type DeviceAction,
  type DeviceStatus,
} from '@inventory/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  seedCatalogue,
  TACS,
} from '../../test/receiving-fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import type { Principal } from '../../http/principal.js';
import { applyDeviceAction } from './devices.service.js';

/**
 * The device actions against the database follow the lifecycle exactly: random sequences of
 * actions on real devices end where the contract's state machine says, with one event per step
 * taken and none for a step refused.
 */

let t: TestApp;
let ids: number[];
const actor: Principal = {
  sessionId: 0,
  userId: 1,
  userName: 'property',
  name: 'Property test',
  type: 'staff',
  firstLogin: 0,
  roles: ['admin'],
  roleIds: [],
  roleKeys: ['admin'],
  accessVersion: 0,
  dataVersions: null,
  permissions: [],
};
const meta = { ip: '127.0.0.1', userAgent: null, requestId: 'property-test' };
const ACTIONS = Object.keys(DEVICE_ACTIONS) as DeviceAction[];
const IMEIS = [1, 2, 3].map((n) => imeiOf(TACS.a15, n));

beforeAll(async () => {
  let admin: ApiClient;
  ({ t, admin } = await createAdminTestApp());
  await seedCatalogue(t);
  await importManifest(admin, manifestCsv(IMEIS.map((imei) => ({ imei }))));
  const box = await openBox(admin, await invoiceIdOf(t, 'INV-1'));
  for (const imei of IMEIS) await scan(admin, box, imei);
  ids = (await t.db.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).map((d) => d.id);
});
afterAll(() => t.close());

type Row = {
  id: number;
  status: DeviceStatus;
  status_before_hold: DeviceStatus | null;
  events: number;
};
const rows = () =>
  t.db.query<Row>(
    `SELECT d.id, d.status, d.status_before_hold,
       (SELECT count(*) FROM device_events e WHERE e.device_id = d.id)::int AS events
     FROM devices d ORDER BY d.id`,
  );

describe('device actions on the database', () => {
  it('follow the state machine, one event per step taken', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...ACTIONS), fc.subarray([0, 1, 2], { minLength: 1 })), {
          maxLength: 6,
        }),
        async (steps) => {
          await t.db.query(
            `UPDATE devices SET status = 'received', status_before_hold = NULL, hold_reason = NULL`,
          );
          for (const [action, picked] of steps) {
            const before = await rows();
            const deviceIds = picked.map((index) => ids[index]!);
            const expected = before
              .filter((row) => deviceIds.includes(row.id))
              .map((row) => ({ row, next: nextDeviceStatus(row, action) }));
            await t.db.transaction((tx) =>
              applyDeviceAction(tx, actor, meta, {
                deviceIds,
                action,
                holdReason: 'mismatch',
                skipRefused: true,
              }),
            );
            const after = new Map((await rows()).map((row) => [row.id, row]));
            for (const { row, next } of expected) {
              const now = after.get(row.id)!;
              if (next.ok) {
                expect(now.status).toBe(next.status);
                expect(now.status_before_hold).toBe(next.status === 'hold' ? row.status : null);
                expect(now.events).toBe(row.events + 1);
              } else {
                expect(now).toEqual(row);
              }
            }
          }
        },
      ),
      { seed: 20261123, numRuns: 25 },
    );
  });

  it('refuses the whole call, naming the device, unless told to skip', async () => {
    await t.db.query(
      `UPDATE devices SET status = 'shipped', status_before_hold = NULL, hold_reason = NULL WHERE id = $1`,
      [ids[0]],
    );
    await expect(
      t.db.transaction((tx) =>
        applyDeviceAction(tx, actor, meta, { deviceIds: ids, action: 'return_to_vendor' }),
      ),
    ).rejects.toThrow(`${IMEIS[0]}: A device that is shipped cannot return to its vendor.`);
  });
});
