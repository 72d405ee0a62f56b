import type { BlacklistEntry, BoxContent, WarehouseBox } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  imeiOf,
  importManifest,
  invoiceIdOf,
  manifestCsv,
  openBox,
  scan,
  seedCatalogue,
  TACS,
  withBadCheckDigit,
  type Catalogue,
} from '../../test/receiving-fixtures.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** The receiving scan station: every answer a scan can get, the box's counts, undo, close. */

let t: TestApp;
let admin: ApiClient;
let clerk: ApiClient;
let catalogue: Catalogue;
let invoiceId: number;

const MANIFEST = [1, 2, 3, 4, 5].map((n) => imeiOf(TACS.a15, n));
const MISMATCHED = imeiOf(TACS.a14, 6);
const DUAL = { imei: imeiOf(TACS.a15, 7), imei2: imeiOf(TACS.a15, 8) };
const OTHER_INVOICE = imeiOf(TACS.a15, 9);

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  await importManifest(
    admin,
    manifestCsv([
      ...MANIFEST.map((imei) => ({ imei })),
      { imei: MISMATCHED },
      DUAL,
      { imei: OTHER_INVOICE, invoice: 'INV-2' },
      { meid: 'A10000009296F2', invoice: 'INV-1' },
    ]),
  );
  invoiceId = await invoiceIdOf(t, 'INV-1');
  // A warehouse sorter as seeded: the role, and with it warehouse-box.scan.
  await createUser(t.db, {
    userName: 'sorter',
    password: 'sorter-password-1',
    roles: ['Warehouse Sorting'],
  });
  clerk = apiClient(t, await login(t.app, 'sorter', 'sorter-password-1'));
});
afterAll(() => t.close());

describe('a scan', () => {
  let box: number;
  beforeAll(async () => {
    box = await openBox(clerk, invoiceId, { qty_expected: 6 });
  });

  it('receives a device of the manifest, its model from the TAC, and counts it', async () => {
    const answer = await scan(clerk, box, ` ${MANIFEST[0]}\r\n`);
    expect(answer).toMatchObject({
      result: 'added',
      code: MANIFEST[0],
      message: 'Added: Samsung Galaxy A15, Black, 128 GB.',
      device: {
        imei: MANIFEST[0],
        model: 'Samsung Galaxy A15',
        status: 'received',
        undoable: true,
      },
      box: { qty_scanned: 1, qty_expected: 6, status: 'receiving', discrepancies: 0 },
    });
    // What the station puts on the page: the device's row as the box lists it.
    const content = bodyOf<BoxContent>(await clerk.get(`/warehouse-boxes/${box}/content`)).data;
    expect(content.devices[0]).toEqual({ ...answer.device, result: 'added' });
    const [device] = await t.db.query<{
      vendor_id: number;
      unit_cost_cents: number;
      grade: string;
    }>('SELECT vendor_id, unit_cost_cents, grade FROM devices WHERE imei = $1', [MANIFEST[0]]);
    expect(device).toEqual({
      vendor_id: catalogue.vendors.acme,
      unit_cost_cents: 4500,
      grade: 'B',
    });
  });

  it('does nothing the second time, and says so', async () => {
    const again = await scan(clerk, box, MANIFEST[0]!);
    expect(again).toMatchObject({
      result: 'already_in_box',
      message: 'Already in this box: nothing to do.',
      box: { qty_scanned: 1 },
    });
  });

  it('refuses what is not an IMEI before it reaches the database', async () => {
    expect(await scan(clerk, box, withBadCheckDigit(MANIFEST[1]!))).toMatchObject({
      result: 'bad_check_digit',
      message: "The IMEI's check digit is wrong: rescan it.",
      device: null,
      box: { qty_scanned: 1 },
    });
    expect(await scan(clerk, box, `${MANIFEST[1]!.slice(0, 14)}07`)).toMatchObject({
      result: 'imeisv',
      message: 'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.',
    });
    expect((await scan(clerk, box, 'PALLET-7')).result).toBe('not_an_identifier');
    expect(await clerk.fieldErrors('POST', `/warehouse-boxes/${box}/scans`, { code: '' })).toEqual({
      code: ['Scan or type a code.'],
    });
  });

  it('names the box a device was received in already, and when, in UTC', async () => {
    const second = await openBox(clerk, invoiceId, {});
    const answer = await scan(clerk, second, MANIFEST[0]!);
    expect(answer).toMatchObject({ result: 'in_other_box', device: { imei: MANIFEST[0] } });
    expect(answer.message).toMatch(
      /^Already received in WB-\d{6} \(invoice INV-1\) on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC by .+\.$/,
    );
    expect((await clerk.delete(`/warehouse-boxes/${second}`)).statusCode).toBe(200);
  });

  it('sends a device of another invoice to that invoice', async () => {
    expect(await scan(clerk, box, OTHER_INVOICE)).toMatchObject({
      result: 'other_invoice',
      message:
        "On invoice INV-2 of Acme Recyclers, not this one: put it aside for that invoice's box.",
      device: null,
    });
  });

  it('receives an off-manifest device flagged, and a model the vendor got wrong', async () => {
    const unexpected = imeiOf(TACS.moto, 50);
    expect(await scan(clerk, box, unexpected)).toMatchObject({
      result: 'unexpected',
      message:
        'Added, but it is not on the invoice: flagged unexpected (Motorola Moto G Play 2023, 32 GB).',
      box: { qty_scanned: 2, discrepancies: 1 },
    });
    expect(await scan(clerk, box, MISMATCHED)).toMatchObject({
      result: 'model_mismatch',
      message: 'Added, but its TAC says Samsung Galaxy A14; the invoice says Samsung Galaxy A15.',
      box: { qty_scanned: 3, discrepancies: 2 },
    });
    // A refusal carries the box's counts as they stand, discrepancies included.
    expect((await scan(clerk, box, 'PALLET-7')).box).toMatchObject({
      qty_scanned: 3,
      discrepancies: 2,
    });
  });

  it('receives a dual-SIM phone by either IMEI, once', async () => {
    const first = await scan(clerk, box, DUAL.imei2);
    expect(first).toMatchObject({
      result: 'added',
      device: { imei: DUAL.imei, imei2: DUAL.imei2 },
    });
    expect((await scan(clerk, box, DUAL.imei)).result).toBe('already_in_box');
  });

  it('receives a MEID the manifest lists, with the model the vendor claims', async () => {
    expect(await scan(clerk, box, 'a10000009296f2')).toMatchObject({
      result: 'added',
      device: { meid: 'A10000009296F2', imei: null, model: 'Samsung Galaxy A15' },
    });
    expect((await scan(clerk, box, 'A10000009296F3')).result).toBe('meid_unknown');
  });

  it('keeps an unknown TAC for learning, and receives the device once it is learned', async () => {
    const stranger = imeiOf('35999999', 1);
    expect(await scan(clerk, box, stranger)).toMatchObject({
      result: 'unknown_tac',
      tac: '35999999',
      message: 'TAC 35999999 maps to no model yet: learn the TAC, or put the device aside.',
    });
    const unknown = bodyOf<{ tac: string; seen_count: number; last_invoice_no: string }[]>(
      await admin.get('/tac-numbers/unknown'),
    ).data;
    expect(unknown).toEqual([
      expect.objectContaining({ tac: '35999999', seen_count: 1, last_invoice_no: 'INV-1' }),
    ]);
    // A sorter may not learn TACs; product information may.
    expect(
      (await clerk.post('/tac-numbers/learn', { tac: '35999999', model_id: catalogue.models.a15 }))
        .statusCode,
    ).toBe(403);
    const learned = await admin.post('/tac-numbers/learn', {
      tac: '35999999',
      model_id: catalogue.models.a15,
    });
    expect(learned.statusCode, learned.body).toBe(201);
    expect(bodyOf(learned).data).toMatchObject({ tac: '35999999', source: 'learned' });
    expect(bodyOf<unknown[]>(await admin.get('/tac-numbers/unknown')).data).toEqual([]);
    expect((await scan(clerk, box, stranger)).result).toBe('unexpected');
  });

  it('registers a blacklisted device on hold in quarantine: not in the box, not counted', async () => {
    const listed = imeiOf(TACS.a15, 60);
    await admin.post('/blacklist-entries', { imei: listed, source: 'gsma', reason: 'stolen' });
    expect(await scan(clerk, box, listed)).toMatchObject({
      result: 'blacklisted',
      message: 'Blacklisted (gsma, stolen): received on hold. Put it in the quarantine tote.',
      device: { status: 'hold', hold_reason: 'blacklist' },
      box: { qty_scanned: 6 },
    });
    const [device] = await t.db.query<{ box: number | null; invoice_id: number; manifest: string }>(
      `SELECT d.warehouse_box_id AS box, d.invoice_id, ii.match_status AS manifest
       FROM devices d JOIN invoice_imeis ii ON ii.device_id = d.id WHERE d.imei = $1`,
      [listed],
    );
    // Received on its invoice (it arrived), in no box: the quarantine tote holds it.
    expect(device).toEqual({ box: null, invoice_id: invoiceId, manifest: 'unexpected' });
    const events = await t.db.query<{ type: string; container: string | null; data: object }>(
      `SELECT e.type, e.container, e.data FROM device_events e
       JOIN devices d ON d.id = e.device_id WHERE d.imei = $1 ORDER BY e.id`,
      [listed],
    );
    const [boxRow] = await t.db.query<{ code: string }>(
      'SELECT code FROM warehouse_boxes WHERE id = $1',
      [box],
    );
    expect(events).toEqual([
      {
        type: 'received',
        container: null,
        data: { result: 'blacklisted', invoice_no: 'INV-1', scanned_at_box: boxRow!.code },
      },
      {
        type: 'held',
        container: null,
        data: expect.objectContaining({ reason: 'blacklist', sent_to: 'quarantine' }),
      },
    ]);
    // Scanned again, at this box or another, it is told to go back where it is.
    expect(await scan(clerk, box, listed)).toMatchObject({
      result: 'quarantined',
      message:
        'On hold (blacklist) and in quarantine already: put it back in the quarantine tote, not in a box.',
      device: { status: 'hold' },
      box: { qty_scanned: 6 },
    });
  });

  it('lists what the box holds, newest first, as a reload shows it', async () => {
    const content = bodyOf<BoxContent>(await clerk.get(`/warehouse-boxes/${box}/content`)).data;
    expect(content.box).toMatchObject({ qty_scanned: 6, discrepancies: 3 });
    expect(content.devices.map((device) => device.result)).toEqual([
      'unexpected',
      'added',
      'added',
      'model_mismatch',
      'unexpected',
      'added',
    ]);
    expect(content.devices.every((device) => device.undoable)).toBe(true);
    // Listed apart: what was scanned here and went to quarantine instead.
    expect(content.quarantined).toEqual([
      expect.objectContaining({
        imei: imeiOf(TACS.a15, 60),
        status: 'hold',
        hold_reason: 'blacklist',
      }),
    ]);
  });

  it('takes a mistaken scan back: the manifest expects it again, the audit keeps it', async () => {
    const content = bodyOf<BoxContent>(await clerk.get(`/warehouse-boxes/${box}/content`)).data;
    const dual = content.devices.find((device) => device.imei === DUAL.imei)!;
    const undone = await clerk.post(`/warehouse-boxes/${box}/scans/undo`, { device_id: dual.id });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(bodyOf(undone).data).toMatchObject({ qty_scanned: 5, discrepancies: 3 });
    const [row] = await t.db.query<{ match_status: string; device_id: number | null }>(
      'SELECT match_status, device_id FROM invoice_imeis WHERE imei = $1',
      [DUAL.imei],
    );
    expect(row).toEqual({ match_status: 'expected', device_id: null });
    const [audit] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'device.receive_undone'",
    );
    expect(audit!.n).toBe(1);
    // A device off the manifest leaves no manifest row behind.
    const off = content.devices.find((device) => device.model.startsWith('Motorola'))!;
    await clerk.post(`/warehouse-boxes/${box}/scans/undo`, { device_id: off.id });
    const [offRow] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM invoice_imeis WHERE imei = $1',
      [imeiOf(TACS.moto, 50)],
    );
    expect(offRow!.n).toBe(0);
    expect(
      (await clerk.post(`/warehouse-boxes/${box}/scans/undo`, { device_id: off.id })).statusCode,
    ).toBe(404);
  });

  it('closes only with the expected count, or by a manager with a reason', async () => {
    const short = await clerk.post(`/warehouse-boxes/${box}/close`, {});
    expect(short.statusCode).toBe(403);
    expect(short.json().message).toBe(
      '4 scanned of 6 expected: a manager closes this box, with a reason. This needs the permission warehouse-box.override.',
    );
    const noReason = await admin.post(`/warehouse-boxes/${box}/close`, {});
    expect(noReason.statusCode).toBe(409);
    expect(noReason.json().message).toBe(
      '4 scanned of 6 expected: say why the box is closed anyway.',
    );
    const closed = await admin.post(`/warehouse-boxes/${box}/close`, {
      override_reason: 'One unit short in the carton',
    });
    expect(bodyOf<WarehouseBox>(closed).data).toMatchObject({
      status: 'received',
      close_override_reason: 'One unit short in the carton',
      closed_by_name: 'Name of pi',
    });
  });

  it('takes no scan once closed; a sorter stages it, only a manager reopens it', async () => {
    const late = await clerk.post(`/warehouse-boxes/${box}/scans`, { code: MANIFEST[2] });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(
      /^Box WB-\d{6} is closed \(received\): reopen it or use another box\.$/,
    );
    const staged = await clerk.post(`/warehouse-boxes/${box}/stage`, { location: 'stg-03' });
    expect(bodyOf<WarehouseBox>(staged).data).toMatchObject({
      status: 'staged',
      staging_location: 'STG-03',
    });
    expect((await clerk.post(`/warehouse-boxes/${box}/reopen`)).statusCode).toBe(403);
    const reopened = await admin.post(`/warehouse-boxes/${box}/reopen`);
    expect(bodyOf<WarehouseBox>(reopened).data).toMatchObject({
      status: 'receiving',
      staging_location: null,
    });
    expect((await scan(clerk, box, MANIFEST[2]!)).result).toBe('added');
  });
});

describe('a device in quarantine', () => {
  it('stays out of the box when its hold is cleared, and goes in when scanned into it', async () => {
    const box = await openBox(clerk, invoiceId, { qty_expected: 1 });
    const listed = imeiOf(TACS.a15, 61);
    const entry = bodyOf<BlacklistEntry>(
      await admin.post('/blacklist-entries', { imei: listed, source: 'carrier', reason: 'unpaid' }),
    ).data;
    expect((await scan(clerk, box, listed)).result).toBe('blacklisted');
    const cleared = await admin.post(`/blacklist-entries/${entry.id}/clear`, {
      evidence: 'Carrier letter: balance paid',
    });
    expect(bodyOf<BlacklistEntry>(cleared).data).toMatchObject({
      device_status: 'received',
      container: null,
    });
    const content = async () =>
      bodyOf<BoxContent>(await clerk.get(`/warehouse-boxes/${box}/content`)).data;
    // Cleared, it is out of quarantine, and still in no box: nothing put it there.
    expect(await content()).toMatchObject({
      box: { qty_scanned: 0 },
      devices: [],
      quarantined: [],
    });

    // Scanned into the box, it is in it, counted, with what its receipt found.
    // Not undoable: it has been held and released since its receipt, as the box's list says.
    expect(await scan(clerk, box, listed)).toMatchObject({
      result: 'unexpected',
      device: { imei: listed, status: 'received', hold_reason: null, undoable: false },
      box: { qty_scanned: 1, discrepancies: 1 },
    });
    const after = await content();
    expect(after.devices).toEqual([
      expect.objectContaining({ imei: listed, result: 'unexpected', undoable: false }),
    ]);
    expect(after.quarantined).toEqual([]);
    const [events] = await t.db.query<{ types: string[] }>(
      `SELECT array_agg(e.type ORDER BY e.id) AS types FROM device_events e
       JOIN devices d ON d.id = e.device_id WHERE d.imei = $1`,
      [listed],
    );
    expect(events!.types).toEqual(['received', 'held', 'hold_cleared', 'put_in_box']);
    expect((await scan(clerk, box, listed)).result).toBe('already_in_box');
  });
});

describe('who may scan', () => {
  it('needs the station role and warehouse-box.scan, both', async () => {
    const box = await openBox(admin, invoiceId);
    await createRole(t.db, 'scan only', ['warehouse-box.scan']);
    await createUser(t.db, {
      userName: 'scanner',
      password: 'scanner-pass-1',
      roles: ['scan only'],
    });
    const permissionOnly = apiClient(t, await login(t.app, 'scanner', 'scanner-pass-1'));
    const refused = await permissionOnly.post(`/warehouse-boxes/${box}/scans`, {
      code: MANIFEST[3],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'This needs one of the roles Warehouse Sorting, Invoice Management and the permission warehouse-box.scan.',
    );
    await t.db.query(
      `DELETE FROM role_permissions WHERE role_id = (SELECT id FROM roles WHERE name = 'Warehouse Sorting')
         AND permission_id = (SELECT id FROM permissions WHERE name = 'warehouse-box.scan')`,
    );
    const roleOnly = await clerk.post(`/warehouse-boxes/${box}/scans`, { code: MANIFEST[3] });
    expect(roleOnly.statusCode).toBe(403);
    // The role still shows the station, to read.
    expect((await clerk.get(`/warehouse-boxes/${box}/content`)).statusCode).toBe(200);
  });
});

describe('boxes', () => {
  it('belong to an open invoice, and an empty one may be deleted', async () => {
    expect(
      await admin.fieldErrors('POST', '/warehouse-boxes', {
        invoice_id: 999_999,
        expected_model_id: 999_999,
      }),
    ).toEqual({
      invoice_id: ['There is no invoice with id 999999.'],
      expected_model_id: ['Choose an active model.'],
    });
    const empty = await openBox(admin, invoiceId, { vendor_label: 'CARTON 9/9' });
    expect((await admin.post(`/warehouse-boxes/${empty}/close`, {})).json().message).toMatch(
      /is empty: scan devices into it, or delete it\.$/,
    );
    expect((await admin.delete(`/warehouse-boxes/${empty}`)).statusCode).toBe(200);
    const used = bodyOf<{ items: WarehouseBox[] }>(
      await admin.get(`/warehouse-boxes?invoice_id=${invoiceId}&status=receiving`),
    ).data.items;
    const withDevices = used.find((box) => box.qty_scanned > 0)!;
    expect((await admin.delete(`/warehouse-boxes/${withDevices.id}`)).json().message).toMatch(
      /is used by \d+ devices/,
    );
  });

  it("are filtered by vendor, picked from the station's own vendor options", async () => {
    const ofAcme = bodyOf<{ items: WarehouseBox[] }>(
      await clerk.get(`/warehouse-boxes?vendor_id=${catalogue.vendors.acme}`),
    ).data.items;
    expect(ofAcme.length).toBeGreaterThan(0);
    expect(ofAcme.every((box) => box.vendor_id === catalogue.vendors.acme)).toBe(true);
    expect(
      bodyOf<{ items: WarehouseBox[] }>(
        await clerk.get(`/warehouse-boxes?vendor_id=${catalogue.vendors.other}`),
      ).data.items,
    ).toEqual([]);
    const options = bodyOf<{ id: number; label: string }[]>(
      await clerk.get('/warehouse-boxes/vendor-options?search=acme'),
    ).data;
    expect(options).toEqual([{ id: catalogue.vendors.acme, label: 'Acme Recyclers' }]);
  });

  it('prints a label: a PDF with the box code', async () => {
    const [box] = bodyOf<{ items: WarehouseBox[] }>(await admin.get('/warehouse-boxes')).data.items;
    const file = await admin.download(`/warehouse-boxes/${box!.id}/label`, undefined);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // Inline: the station opens it in the browser's PDF viewer to print.
    expect(file.headers['content-disposition']).toBe(`inline; filename="${box!.code}.pdf"`);
  });
});
