import type { TransferDevice, VendorTransfer } from '@inventory/contract';
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
  type Catalogue,
} from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Returns to vendor: which devices may go back, the steps, and what shipping does. */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
const ACME = [1, 2, 3].map((n) => imeiOf(TACS.a15, n));
const OTHER = imeiOf(TACS.a15, 20);
const BLOCKED = imeiOf(TACS.a15, 4);

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  await importManifest(
    admin,
    manifestCsv([
      ...ACME.map((imei) => ({ imei })),
      { imei: BLOCKED },
      { imei: OTHER, vendor: 'Other Wholesale', invoice: 'OW-1' },
    ]),
  );
  const acmeBox = await openBox(admin, await invoiceIdOf(t, 'INV-1'));
  for (const imei of [...ACME, BLOCKED]) await scan(admin, acmeBox, imei);
  await scan(admin, await openBox(admin, await invoiceIdOf(t, 'OW-1')), OTHER);
  await admin.post('/blacklist-entries', { imei: BLOCKED, source: 'gsma', reason: 'stolen' });
});
afterAll(() => t.close());

const transferOf = async (id: number) =>
  bodyOf<VendorTransfer>(await admin.get(`/vendor-transfers/${id}`)).data;

describe('a return to vendor', () => {
  let id: number;

  it("is a vendor's: its invoice must be that vendor's", async () => {
    expect(
      await admin.fieldErrors('POST', '/vendor-transfers', {
        vendor_id: catalogue.vendors.acme,
        invoice_id: await invoiceIdOf(t, 'OW-1'),
        reason: 'blacklisted',
      }),
    ).toEqual({ invoice_id: ["Choose one of this vendor's invoices."] });
    const created = await admin.post('/vendor-transfers', {
      vendor_id: catalogue.vendors.acme,
      invoice_id: await invoiceIdOf(t, 'INV-1'),
      reason: 'blacklisted',
    });
    expect(created.statusCode, created.body).toBe(201);
    const transfer = bodyOf<VendorTransfer>(created).data;
    expect(transfer).toMatchObject({ status: 'draft', device_count: 0, vendor: 'Acme Recyclers' });
    expect(transfer.code).toMatch(/^RTV-\d{6}$/);
    id = transfer.id;
  });

  it("takes the vendor's devices in stock, held ones too, each on one live return", async () => {
    const refused = await admin.fieldErrors('POST', `/vendor-transfers/${id}/devices`, {
      codes: [OTHER, imeiOf(TACS.a15, 99), BLOCKED],
    });
    expect(refused).toEqual({
      codes: [`${imeiOf(TACS.a15, 99)}: no such device.`, `${OTHER}: bought from another vendor.`],
    });
    const added = await admin.post(`/vendor-transfers/${id}/devices`, {
      codes: [BLOCKED, ACME[0]],
    });
    expect(bodyOf<VendorTransfer>(added).data).toMatchObject({
      device_count: 2,
      devices_cost_cents: 9000,
    });
    const second = bodyOf<VendorTransfer>(
      await admin.post('/vendor-transfers', { vendor_id: catalogue.vendors.acme, reason: 'other' }),
    ).data;
    expect(
      await admin.fieldErrors('POST', `/vendor-transfers/${second.id}/devices`, {
        codes: [ACME[0]],
      }),
    ).toEqual({ codes: [`${ACME[0]}: on ${(await transferOf(id)).code} already.`] });
    expect((await admin.delete(`/vendor-transfers/${second.id}`)).statusCode).toBe(200);
  });

  it('takes a device off while a draft', async () => {
    const [device] = await t.db.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [
      ACME[0],
    ]);
    const removed = await admin.delete(`/vendor-transfers/${id}/devices/${device!.id}`);
    expect(bodyOf<VendorTransfer>(removed).data.device_count).toBe(1);
    expect((await admin.delete(`/vendor-transfers/${id}/devices/${device!.id}`)).statusCode).toBe(
      404,
    );
  });

  it('goes draft, packed, shipped (tracking needed), received, credited', async () => {
    expect((await admin.post(`/vendor-transfers/${id}/ship`, {})).json().message).toBe(
      'A return that is draft cannot be shipped.',
    );
    expect(
      bodyOf<VendorTransfer>(await admin.post(`/vendor-transfers/${id}/pack`, {})).data.status,
    ).toBe('packed');
    expect(
      (await admin.post(`/vendor-transfers/${id}/devices`, { codes: [ACME[1]] })).statusCode,
    ).toBe(409);
    expect(await admin.fieldErrors('POST', `/vendor-transfers/${id}/ship`, {})).toEqual({
      tracking: ['Enter the tracking number.'],
    });
    const shipped = bodyOf<VendorTransfer>(
      await admin.post(`/vendor-transfers/${id}/ship`, {
        carrier: 'UPS',
        tracking: '1Z999AA10123456784',
      }),
    ).data;
    expect(shipped).toMatchObject({ status: 'shipped', tracking: '1Z999AA10123456784' });
    expect(shipped.shipped_at).not.toBeNull();

    const [device] = bodyOf<TransferDevice[]>(
      await admin.get(`/vendor-transfers/${id}/devices`),
    ).data;
    expect(device).toMatchObject({ imei: BLOCKED, status: 'rtv', container: null });
    const [claim] = await t.db.query<{ decision: string; decision_note: string }>(
      'SELECT decision, decision_note FROM invoice_imeis WHERE imei = $1',
      [BLOCKED],
    );
    expect(claim).toEqual({
      decision: 'return_to_vendor',
      decision_note: `Returned on ${shipped.code}`,
    });
    const [event] = await t.db.query<{ type: string; from_status: string; ref_type: string }>(
      `SELECT e.type, e.from_status, e.ref_type FROM device_events e JOIN devices d ON d.id = e.device_id
       WHERE d.imei = $1 ORDER BY e.id DESC LIMIT 1`,
      [BLOCKED],
    );
    expect(event).toEqual({
      type: 'returned_to_vendor',
      from_status: 'hold',
      ref_type: 'vendor_transfer',
    });

    expect((await admin.post(`/vendor-transfers/${id}/cancel`, {})).statusCode).toBe(409);
    await admin.post(`/vendor-transfers/${id}/confirm-receipt`, {});
    expect(await admin.fieldErrors('POST', `/vendor-transfers/${id}/credit`, {})).toEqual({
      credit_cents: ["Enter the vendor's credit."],
    });
    const credited = bodyOf<VendorTransfer>(
      await admin.post(`/vendor-transfers/${id}/credit`, { credit_cents: 4500 }),
    ).data;
    expect(credited).toMatchObject({ status: 'credited', credit_cents: 4500 });
    expect((await admin.put(`/vendor-transfers/${id}`, { notes: 'late' })).statusCode).toBe(409);
  });

  it('frees its devices when cancelled before shipping', async () => {
    const draft = bodyOf<VendorTransfer>(
      await admin.post('/vendor-transfers', {
        vendor_id: catalogue.vendors.acme,
        reason: 'defective',
      }),
    ).data;
    await admin.post(`/vendor-transfers/${draft.id}/devices`, { codes: [ACME[2]] });
    const cancelled = bodyOf<VendorTransfer>(
      await admin.post(`/vendor-transfers/${draft.id}/cancel`, {}),
    ).data;
    expect(cancelled).toMatchObject({ status: 'cancelled', device_count: 0 });
    const next = bodyOf<VendorTransfer>(
      await admin.post('/vendor-transfers', {
        vendor_id: catalogue.vendors.acme,
        reason: 'defective',
      }),
    ).data;
    // A device picked from a list comes by id.
    const [device] = await t.db.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [
      ACME[2],
    ]);
    const byId = await admin.post(`/vendor-transfers/${next.id}/devices`, {
      device_ids: [device!.id],
    });
    expect(bodyOf<VendorTransfer>(byId).data.device_count).toBe(1);
  });
});
