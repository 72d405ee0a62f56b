import type { BlacklistEntry, Device, DeviceLookup } from '@inventory/contract';
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
  withBadCheckDigit,
  type Catalogue,
} from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** The device registry: lookup by any identifier, the timeline, labels, and the blacklist. */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let box: number;
const RECEIVED = [1, 2, 3, 4].map((n) => imeiOf(TACS.a15, n));
const DUAL = { imei: imeiOf(TACS.a14, 10), imei2: imeiOf(TACS.a14, 11) };

const lookUp = async (code: string) =>
  bodyOf<DeviceLookup>(await admin.get(`/devices/lookup?code=${encodeURIComponent(code)}`)).data;

const statusOf = async (imei: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM devices WHERE imei = $1', [imei]))[0]
    ?.status;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  await importManifest(
    admin,
    manifestCsv([...RECEIVED.map((imei) => ({ imei })), { ...DUAL, model: 'Samsung Galaxy A14' }]),
  );
  box = await openBox(admin, await invoiceIdOf(t, 'INV-1'));
  for (const imei of [...RECEIVED, DUAL.imei]) await scan(admin, box, imei);
  await t.db.query("UPDATE devices SET serial = 'R58N123ABC' WHERE imei = $1", [RECEIVED[0]]);
});
afterAll(() => t.close());

describe('looking a device up', () => {
  it('finds it by IMEI, second IMEI or serial, with its card and timeline', async () => {
    const byImei = await lookUp(RECEIVED[0]!);
    expect(byImei).toMatchObject({ matched_by: 'imei', problem: null });
    expect(byImei.card!.device).toMatchObject({
      imei: RECEIVED[0],
      model: 'Samsung Galaxy A15',
      status: 'received',
      invoice_no: 'INV-1',
      vendor: 'Acme Recyclers',
      unit_cost_cents: 4500,
    });
    expect(byImei.card!.device.container).toMatch(/^WB-\d{6}$/);
    expect(byImei.card!.claim).toMatchObject({ match_status: 'received' });
    expect(byImei.card!.events).toEqual([
      expect.objectContaining({
        type: 'received',
        to_status: 'received',
        actor_name: 'pi',
        station: 'dock-1',
        container: byImei.card!.device.container,
      }),
    ]);
    expect((await lookUp(DUAL.imei2)).matched_by).toBe('imei2');
    expect((await lookUp('R58N123ABC')).card!.device.imei).toBe(RECEIVED[0]);
  });

  it('prefers the device whose own IMEI the code is over one that carries it as IMEI2', async () => {
    // An older device that a vendor's data gave the same number as its second IMEI.
    await t.db.query('UPDATE devices SET imei2 = $1 WHERE imei = $2', [RECEIVED[3], RECEIVED[2]]);
    try {
      const found = await lookUp(RECEIVED[3]!);
      expect(found.matched_by).toBe('imei');
      expect(found.card!.device.imei).toBe(RECEIVED[3]);
    } finally {
      await t.db.query('UPDATE devices SET imei2 = NULL WHERE imei = $1', [RECEIVED[2]]);
    }
  });

  it('reads an IMEISV as its IMEI, and says what is wrong with a code', async () => {
    const imeisv = await lookUp(`${RECEIVED[1]!.slice(0, 14)}42`);
    expect(imeisv.card!.device.imei).toBe(RECEIVED[1]);
    expect(imeisv.problem).toBe(
      `This is an IMEISV: the device of its IMEI ${RECEIVED[1]} is shown.`,
    );
    expect(await lookUp(withBadCheckDigit(RECEIVED[1]!))).toMatchObject({
      card: null,
      problem: "The IMEI's check digit is wrong: rescan it.",
    });
    expect((await lookUp(imeiOf(TACS.a15, 999))).problem).toBe(
      `No device has the IMEI, MEID or serial number ${imeiOf(TACS.a15, 999)}.`,
    );
    expect((await admin.get('/devices/lookup?code=')).statusCode).toBe(422);
  });

  it('lists the registry by filter and IMEI prefix, the last page as the first', async () => {
    const page = async (query: string) =>
      bodyOf<{ items: Device[]; nextCursor: string | null; prevCursor: string | null }>(
        await admin.get(`/devices?${query}`),
      ).data;
    expect((await page(`model_id=${catalogue.models.a15}`)).items.map((d) => d.imei)).toEqual(
      [...RECEIVED].sort(),
    );
    expect((await page(`search=${RECEIVED[2]!.slice(0, 14)}`)).items.map((d) => d.imei)).toEqual([
      RECEIVED[2],
    ]);
    expect((await page('search=galaxy a14')).items.map((d) => d.imei)).toEqual([DUAL.imei]);
    const last = await page('limit=2&cursor=last');
    expect(last.items).toHaveLength(2);
    expect(last.nextCursor).toBeNull();
    expect(last.prevCursor).not.toBeNull();
    expect((await admin.get('/devices?status=sold')).statusCode).toBe(422);
  });

  it('prints a device label and records the print', async () => {
    const { card } = await lookUp(RECEIVED[0]!);
    const file = await admin.download(`/devices/${card!.device.id}/label`, undefined);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [prints] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'device.label_printed'",
    );
    expect(prints!.n).toBe(1);
  });

  it('prints a device label as ZPL for a 2x1 Zebra label, its copies on record', async () => {
    const { card } = await lookUp(RECEIVED[1]!);
    const file = await admin.download(`/devices/${card!.device.id}/label`, {
      format: 'zpl',
      copies: 2,
    });
    expect(file.headers['content-type']).toBe('application/x-zpl');
    expect(file.body.startsWith('^XA^CI28^PW406^LL203')).toBe(true);
    expect(file.body).toContain(`^FH^FD${RECEIVED[1]}^FS`);
    expect(file.body.trimEnd().endsWith('^PQ2^XZ')).toBe(true);
    const [print] = await t.db.query<{ after: unknown }>(
      `SELECT after FROM audit_events WHERE action = 'device.label_printed'
       ORDER BY id DESC LIMIT 1`,
    );
    expect(print!.after).toEqual({ identifier: RECEIVED[1], format: 'zpl', copies: 2 });
    expect(
      await admin.fieldErrors('POST', `/devices/${card!.device.id}/label`, { size: '4x6' }),
    ).toEqual({ size: ['Choose the label size: 2x1.'] });
  });
});

describe('the blacklist', () => {
  it('holds a listed device at once, and the hold is on its timeline', async () => {
    const created = await admin.post('/blacklist-entries', {
      imei: RECEIVED[0],
      source: 'carrier',
      reason: 'unpaid',
      reference: 'TMO-5521',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(bodyOf<BlacklistEntry>(created).data).toMatchObject({
      open: true,
      device_status: 'hold',
      vendor: 'Acme Recyclers',
      invoice_no: 'INV-1',
    });
    const card = (await lookUp(RECEIVED[0]!)).card!;
    expect(card.device).toMatchObject({
      status: 'hold',
      hold_reason: 'blacklist',
      blacklist_state: 'blocked',
    });
    expect(card.blacklist).toMatchObject({ source: 'carrier', reason: 'unpaid' });
    expect(card.events[0]).toMatchObject({
      type: 'held',
      from_status: 'received',
      to_status: 'hold',
      ref_type: 'blacklist_entry',
    });
    expect(
      await admin.fieldErrors('POST', '/blacklist-entries', { imei: RECEIVED[0], reason: 'fraud' }),
    ).toEqual({ imei: ['This IMEI is on the blacklist already.'] });
  });

  it('lists an IMEI we do not have yet, and holds the device when it arrives', async () => {
    const future = imeiOf(TACS.a15, 77);
    const entry = bodyOf<BlacklistEntry>(
      await admin.post('/blacklist-entries', { imei: future, reason: 'stolen' }),
    ).data;
    expect(entry).toMatchObject({ device_id: null, source: 'internal' });
    expect((await scan(admin, box, future)).result).toBe('blacklisted');
    expect(await statusOf(future)).toBe('hold');
  });

  it('clears a listing only with evidence: the device goes back where it was', async () => {
    const [entry] = bodyOf<{ items: BlacklistEntry[] }>(
      await admin.get(`/blacklist-entries?search=${RECEIVED[0]}`),
    ).data.items;
    expect(
      await admin.fieldErrors('POST', `/blacklist-entries/${entry!.id}/clear`, { evidence: ' ' }),
    ).toEqual({
      evidence: ['Please enter the evidence (a provider result, a carrier letter).'],
    });
    const cleared = bodyOf<BlacklistEntry>(
      await admin.post(`/blacklist-entries/${entry!.id}/clear`, {
        evidence: 'Carrier letter 2026-11-20: balance paid',
      }),
    ).data;
    expect(cleared).toMatchObject({
      open: false,
      device_status: 'received',
      cleared_by_name: 'Name of pi',
    });
    expect(
      (await admin.post(`/blacklist-entries/${entry!.id}/clear`, { evidence: 'again' })).statusCode,
    ).toBe(409);
    const card = (await lookUp(RECEIVED[0]!)).card!;
    expect(card.device).toMatchObject({ hold_reason: null, blacklist_state: 'clean' });
    expect(card.events.map((event) => event.type)).toEqual(['hold_cleared', 'held', 'received']);
  });

  it('imports provider results: blocked ones held, clean ones marked, a listed IMEI not cleared by file', async () => {
    const header = 'IMEI,Result,Source,Reason,Checked at,Reference';
    const refused = await admin.uploadAndCheck(
      'blacklist-entries',
      'checks.csv',
      [header, `${imeiOf(TACS.a15, 77)},clean,gsma,,2026-11-21,G-1`].join('\n'),
    );
    expect(refused.check.errors.map((error) => [error.column, error.message])).toEqual([
      [
        'Result',
        expect.stringMatching(
          /^This IMEI is on the blacklist since \d{4}-\d{2}-\d{2}: clear it on the page, with this result as evidence\.$/,
        ),
      ],
    ]);
    const good = await admin.uploadAndCheck(
      'blacklist-entries',
      'checks.csv',
      [
        header,
        `${RECEIVED[1]},blocked,gsma,stolen,2026-11-21,G-2`,
        `${RECEIVED[2]},clean,gsma,,2026-11-21,G-3`,
        `${imeiOf(TACS.moto, 5)},,checker,fraud,,`,
      ].join('\n'),
    );
    expect(good.check.errors).toEqual([]);
    const committed = await admin.commitImport('blacklist-entries', good.id);
    expect(bodyOf(committed).data).toMatchObject({ created_count: 2 });
    expect(await statusOf(RECEIVED[1]!)).toBe('hold');
    const [clean] = await t.db.query<{ blacklist_state: string }>(
      'SELECT blacklist_state FROM devices WHERE imei = $1',
      [RECEIVED[2]],
    );
    expect(clean!.blacklist_state).toBe('clean');
    const open = bodyOf<{ items: BlacklistEntry[] }>(
      await admin.get('/blacklist-entries?open=true&in_stock=true'),
    ).data.items;
    expect(open.map((entry) => entry.imei).sort()).toEqual(
      [imeiOf(TACS.a15, 77), RECEIVED[1]].sort(),
    );
  });

  it('reads a provider file without a Result column as blocked, as an empty result cell', async () => {
    const listed = imeiOf(TACS.moto, 6);
    const file = await admin.uploadAndCheck(
      'blacklist-entries',
      'carrier.csv',
      ['IMEI,Source,Reason', `${listed},carrier,stolen`].join('\n'),
    );
    expect(file.check.errors).toEqual([]);
    const committed = await admin.commitImport('blacklist-entries', file.id);
    expect(bodyOf(committed).data).toMatchObject({ created_count: 1 });
    const [entry] = await t.db.query<{ source: string }>(
      'SELECT source FROM blacklist_entries WHERE imei = $1 AND cleared_at IS NULL',
      [listed],
    );
    expect(entry).toEqual({ source: 'carrier' });
  });

  it('holds a dual-SIM device listed by either IMEI, once', async () => {
    expect(
      (await admin.post('/blacklist-entries', { imei: DUAL.imei2, reason: 'fraud' })).statusCode,
    ).toBe(201);
    expect(await statusOf(DUAL.imei)).toBe('hold');
    expect(
      (await admin.post('/blacklist-entries', { imei: DUAL.imei, reason: 'fraud' })).statusCode,
    ).toBe(201);
    const [events] = await t.db.query<{ types: string[] }>(
      `SELECT array_agg(e.type ORDER BY e.id) AS types FROM device_events e
       JOIN devices d ON d.id = e.device_id WHERE d.imei = $1`,
      [DUAL.imei],
    );
    expect(events!.types).toEqual(['received', 'held']);
  });
});
