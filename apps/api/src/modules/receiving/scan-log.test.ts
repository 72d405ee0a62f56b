import type { ReceiveScan, ScanLog, ScanLogEntry } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  seedCatalogue,
  TACS,
  withBadCheckDigit,
} from '../../test/receiving-fixtures.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** The scan log of a box (migration 0015): every scan at a station, refused or not, kept. */

let t: TestApp;
let admin: ApiClient;
let clerk: ApiClient;
let other: ApiClient;
let box: number;

const MANIFEST = [1, 2, 3].map((n) => imeiOf(TACS.a15, n));
const OTHER_INVOICE = imeiOf(TACS.a15, 9);
const UNKNOWN_TAC = imeiOf('35999999', 1);

async function scanAt(client: ApiClient, station: string, code: string) {
  const response = await client.post(`/warehouse-boxes/${box}/scans`, { code, station });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ReceiveScan>(response).data;
}

/** The log entry a scan's answer carries, as the log lists it. */
const entryOf = ({ log_id, at, station, user_name, code, result, message, tac }: ReceiveScan) => ({
  id: log_id,
  at,
  station,
  user_name,
  code,
  result,
  message,
  tac,
});

async function logOf(query = '', client = admin): Promise<ScanLog> {
  const response = await client.get(`/warehouse-boxes/${box}/scans${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<ScanLog>(response).data;
}

const briefly = (entries: readonly ScanLogEntry[]) =>
  entries.map(({ code, result, station, user_name }) => ({ code, result, station, user_name }));

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  await seedCatalogue(t);
  await importManifest(
    admin,
    manifestCsv([...MANIFEST.map((imei) => ({ imei })), { imei: OTHER_INVOICE, invoice: 'INV-2' }]),
  );
  for (const userName of ['sorter', 'sorter2']) {
    await createUser(t.db, {
      userName,
      password: `${userName}-password-1`,
      roles: ['Warehouse Sorting'],
    });
  }
  clerk = apiClient(t, await login(t.app, 'sorter', 'sorter-password-1'));
  other = apiClient(t, await login(t.app, 'sorter2', 'sorter2-password-1'));
  box = await openBox(clerk, await invoiceIdOf(t, 'INV-1'));
});
afterAll(() => t.close());

describe("a box's scan log", () => {
  it('keeps a refused and an accepted scan, with station, person, result and words', async () => {
    const refused = await scanAt(clerk, 'dock-1', OTHER_INVOICE);
    expect(refused.result).toBe('other_invoice');
    const added = await scanAt(clerk, 'dock-1', MANIFEST[0]!);
    expect(added.result).toBe('added');
    const unreadable = await scanAt(other, 'dock-2', ` ${withBadCheckDigit(MANIFEST[1]!)}\r\n`);
    expect(unreadable.result).toBe('bad_check_digit');
    const repeat = await scanAt(other, 'dock-2', MANIFEST[0]!);
    expect(repeat.result).toBe('already_in_box');
    const unknown = await scanAt(other, 'dock-2', UNKNOWN_TAC);
    expect(unknown.result).toBe('unknown_tac');

    const { entries, next_before } = await logOf();
    expect(next_before).toBeNull();
    // Newest first; each row is what the station was answered.
    expect(briefly(entries)).toEqual([
      { code: UNKNOWN_TAC, result: 'unknown_tac', station: 'dock-2', user_name: 'sorter2' },
      {
        code: MANIFEST[0],
        result: 'already_in_box',
        station: 'dock-2',
        user_name: 'sorter2',
      },
      {
        code: withBadCheckDigit(MANIFEST[1]!),
        result: 'bad_check_digit',
        station: 'dock-2',
        user_name: 'sorter2',
      },
      { code: MANIFEST[0], result: 'added', station: 'dock-1', user_name: 'sorter' },
      {
        code: OTHER_INVOICE,
        result: 'other_invoice',
        station: 'dock-1',
        user_name: 'sorter',
      },
    ]);
    // Each answer carries its row of the log: a station shows it without reading the log again.
    expect(entries).toEqual([unknown, repeat, unreadable, added, refused].map(entryOf));
    expect(entries[0]).toMatchObject({ tac: '35999999' });
    expect(entries[4]!.message).toBe(
      "On invoice INV-2 of Acme Recyclers, not this one: put it aside for that invoice's box.",
    );
  });

  it('filters by station and by result, refusals together, and pages newest first', async () => {
    expect(briefly((await logOf('?station=dock-1')).entries).map((entry) => entry.result)).toEqual([
      'added',
      'other_invoice',
    ]);
    const refused = await logOf('?result=refused');
    expect(refused.entries.map((entry) => entry.result)).toEqual([
      'unknown_tac',
      'bad_check_digit',
      'other_invoice',
    ]);
    const clerksRefusals = await logOf('?station=dock-2&result=refused');
    expect(clerksRefusals.entries.map((entry) => entry.code)).toEqual([
      UNKNOWN_TAC,
      withBadCheckDigit(MANIFEST[1]!),
    ]);
    expect((await logOf('?result=added')).entries.map((entry) => entry.code)).toEqual([
      MANIFEST[0],
    ]);

    const first = await logOf('?limit=2');
    expect(first.entries).toHaveLength(2);
    const second = await logOf(`?limit=2&before=${first.next_before}`);
    const third = await logOf(`?limit=2&before=${second.next_before}`);
    expect(third.next_before).toBeNull();
    expect(
      [...first.entries, ...second.entries, ...third.entries].map((entry) => entry.id),
    ).toEqual((await logOf()).entries.map((entry) => entry.id));
    expect((await admin.get(`/warehouse-boxes/${box}/scans?result=lost`)).statusCode).toBe(422);
    expect((await admin.get(`/warehouse-boxes/${box}/scans?limit=501`)).statusCode).toBe(422);
    expect((await admin.get('/warehouse-boxes/999999/scans')).statusCode).toBe(404);
  });

  it('keeps an undone scan as history: the undo takes the device out, not the log row', async () => {
    const added = await scanAt(clerk, 'dock-1', MANIFEST[2]!);
    const [device] = await t.db.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [
      MANIFEST[2],
    ]);
    const undone = await clerk.post(`/warehouse-boxes/${box}/scans/undo`, {
      device_id: device!.id,
    });
    expect(undone.statusCode, undone.body).toBe(200);
    const [newest] = (await logOf()).entries;
    expect(newest).toMatchObject({ id: added.log_id, code: MANIFEST[2], result: 'added' });
    // Scanned again, it is added again: a second row.
    expect((await scanAt(clerk, 'dock-1', MANIFEST[2]!)).result).toBe('added');
    expect(
      (await logOf('?result=added')).entries.filter((entry) => entry.code === MANIFEST[2]),
    ).toHaveLength(2);
  });

  it("is read with the box station's access only", async () => {
    await createRole(t.db, 'scan only', ['warehouse-box.scan']);
    await createUser(t.db, {
      userName: 'outsider',
      password: 'outsider-pass-1',
      roles: ['scan only'],
    });
    const outsider = apiClient(t, await login(t.app, 'outsider', 'outsider-pass-1'));
    expect((await outsider.get(`/warehouse-boxes/${box}/scans`)).statusCode).toBe(403);
    // The station's role reads it, every station's scans alike.
    expect((await logOf('', other)).entries.length).toBeGreaterThan(0);
  });

  it('goes with its box', async () => {
    const empty = await openBox(clerk, await invoiceIdOf(t, 'INV-1'));
    const response = await clerk.post(`/warehouse-boxes/${empty}/scans`, { code: 'PALLET-7' });
    expect(bodyOf<{ result: string }>(response).data.result).toBe('not_an_identifier');
    expect((await clerk.delete(`/warehouse-boxes/${empty}`)).statusCode).toBe(200);
    const [left] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM box_scan_log WHERE box_id = $1',
      [empty],
    );
    expect(left!.n).toBe(0);
  });
});
